// "Did you mean" suggestions: candidates ranked by edit distance, likeliest first. Rules call this
// only when they report a finding; the distance is bounded, so far candidates cost a length check.
// A large, stable set of names (a domain's table) is kept as a NameIndex: a query visits only the
// names its bound lets through, and its answer is kept for the next check of the same names.

import { detached } from './detached.js';
import { distance } from 'fastest-levenshtein';

/**
 * The edit distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Strings whose
 * lengths differ by more than the limit are that far apart at least: no distance is computed.
 */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  return Math.min(distance(a, b), limit + 1);
}

/**
 * Candidates close enough to `name` to be a plausible typo, likeliest first. Case differences
 * count as near-misses (a wrongly cased code is the commonest mistake).
 */
export function suggest(name: string, candidates: Iterable<string>, max = 5): string[] {
  const lower = name.toLowerCase();
  const scored: Scored[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === name || seen.has(candidate)) continue;
    seen.add(candidate);
    const s = scoreOf(name, lower, formsOf(candidate));
    if (s) scored.push(s);
  }
  return ranked(scored, max);
}

/**
 * Suggestions among the names of several indexes, as `suggest` gives them over the indexes' names
 * in order (the same candidates, the same order).
 */
export function suggestAmong(name: string, indexes: readonly NameIndex[], max = 5): string[] {
  return bestAmong(name, indexes, max).kept.map((s) => s.candidate);
}

/** Every name of the indexes near `name` (each once), scored, in no useful order: the whole ranking `bestAmong` reads the start of. */
export function scoredAmong(name: string, indexes: readonly NameIndex[]): Scored[] {
  const scored: Scored[] = [];
  let seen: Set<string> | undefined;
  for (const index of indexes) {
    for (const s of index.within(name, Infinity)) {
      // A name in several indexes (a native concept the domain declares too) is offered once.
      if (indexes.length > 1) {
        seen ??= new Set();
        if (seen.has(s.candidate)) continue;
        seen.add(s.candidate);
      }
      scored.push(s);
    }
  }
  return scored;
}

/**
 * The first `room` candidates of the indexes' names near `name`, in rank order: what
 * `best(scoredAmong(name, indexes), room)` gives, without scoring every candidate the bigram bound
 * lets through. Each candidate gets a lower bound of its score from the bigrams it shares with
 * `name` (`NameIndex.bounded`); candidates are scored by increasing bound, and the search stops
 * once `room` candidates score no more than every bound still unscored. Names of one shape
 * (generated codes, numbered variants) are within the distance limit of hundreds of others: a
 * branch switch asking 1,750 new names scored about 1,700 candidates each, where the answer reads
 * the 16 nearest. `complete` when the candidates found are all there are (when the search stopped
 * early it is false: the answer is the ranking's start, which is what kept answers need).
 */
export function bestAmong(name: string, indexes: readonly NameIndex[], room: number): { kept: Scored[]; complete: boolean } {
  const lower = name.toLowerCase();
  // Per half point of bound, the candidates with it: (position of the index, position in it, bound of the whole name's distance).
  const buckets: number[][] = [];
  for (let ip = 0; ip < indexes.length; ip++) indexes[ip]!.bounded(name, lower, ip, buckets);
  const kept: Scored[] = [];
  let scored = 0;
  let seen: Set<string> | undefined;
  let lastKey = buckets.length - 1;
  while (lastKey >= 0 && buckets[lastKey] === undefined) lastKey--;
  for (let key = 0; key <= lastKey; key++) {
    const bucket = buckets[key];
    if (bucket === undefined) continue;
    for (let i = 0; i < bucket.length; i += 3) {
      const s = indexes[bucket[i]!]!.scoreAt(bucket[i + 1]!, name, lower, bucket[i + 2]!);
      if (!s) continue;
      // A name in several indexes (a native concept the domain declares too) is offered once.
      if (indexes.length > 1) {
        seen ??= new Set();
        if (seen.has(s.candidate)) continue;
        seen.add(s.candidate);
      }
      scored++;
      insertRanked(kept, s, room);
    }
    // Every candidate left has a bound over key / 2, so a score over it: none can rank before the last kept.
    const last = kept[room - 1];
    if (last !== undefined && last.score <= key / 2 && key < lastKey) return { kept, complete: false };
  }
  return { kept, complete: scored <= room };
}

/** Puts `s` at its place in `out` (ranked, `max` at most), as `best` does. */
export function insertRanked(out: Scored[], s: Scored, max: number): void {
  if (max <= 0 || (out.length === max && byRank(s, out[max - 1]!) >= 0)) return;
  let at = out.length;
  while (at > 0 && byRank(s, out[at - 1]!) < 0) at--;
  out.splice(at, 0, s);
  if (out.length > max) out.pop();
}

/**
 * Whether `candidate` may be among the suggestions for `name` (it is `name`, or near enough to be
 * scored): a name declared or removed that is not can change no suggestion for it.
 */
export function mayBeSuggested(name: string, candidate: string): boolean {
  return candidate === name || scoreOf(name, name.toLowerCase(), formsOf(candidate)) !== undefined;
}

interface Forms {
  candidate: string;
  /** After the last dot (the code of a qualified name). */
  local: string;
  localLower: string;
  lower: string;
}

/** A candidate with its score for a name (lower is nearer). */
export interface Scored {
  candidate: string;
  score: number;
}

// The collator `localeCompare` uses, made once (a near miss of a large tree has many peers).
const collator = new Intl.Collator();
// Names the collator finds equal are ordered by their code units: the ranking is a total order, so
// that it depends on the set of candidates only, not on where each was found (kept suggestions are
// updated by the names that changed, in no particular order).
export const byRank = (a: Scored, b: Scored): number => a.score - b.score || collator.compare(a.candidate, b.candidate) || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0);

function ranked(scored: readonly Scored[], max: number): string[] {
  return best(scored, max).map((s) => s.candidate);
}

/**
 * The first `max` of the scored in a stable sort by score, then name: kept as they come, each
 * placed after its equals, so that names are compared only among the few best.
 */
export function best(scored: readonly Scored[], max: number): Scored[] {
  const out: Scored[] = [];
  for (const s of scored) insertRanked(out, s, max);
  return out;
}

/** The largest distance kept between a name of length `n` and a code of length `local`. */
function limitOf(n: number, local: number): number {
  return Math.max(2, Math.floor(Math.max(n, local) / 3));
}

/**
 * The candidate's score for `name`, or undefined when it is too far. `wholeAtLeast`: a lower bound
 * of the whole name's distance (a qualified candidate's), which spares computing it when the
 * code's distance is already no more.
 */
function scoreOf(name: string, lower: string, f: Forms, wholeAtLeast = 0): Scored | undefined {
  if (f.candidate === name) return undefined;
  const { local, localLower, candidate } = f;
  const limit = limitOf(name.length, local.length);
  const contains = local.length >= 4 && (lower.includes(localLower) || localLower.includes(lower));
  // Both distances capped at limit + 1: the score is exact up to the limit, and above it only
  // "too far" matters (a containing candidate then scores the limit itself).
  let d = boundedDistance(lower, localLower, limit);
  if (local.length !== candidate.length) {
    d += 0.5;
    if (wholeAtLeast < d) d = Math.min(d, boundedDistance(lower, f.lower, limit));
  }
  if (d <= limit || contains) return { candidate, score: contains ? Math.min(d, limit) : d };
  return undefined;
}

function makeForms(candidate: string): Forms {
  const local = candidate.slice(candidate.lastIndexOf('.') + 1);
  return { candidate, local, localLower: local.toLowerCase(), lower: candidate.toLowerCase() };
}

// A candidate's local part and lower-case forms, made once: the same names of a large tree are
// candidates of every suggestion. Bounded: emptied when it holds too many.
const forms = new Map<string, Forms>();
const MAX_FORMS = 200_000;

function formsOf(candidate: string): Forms {
  let f = forms.get(candidate);
  if (!f) {
    if (forms.size >= MAX_FORMS) forms.clear();
    // A name is often cut from its bundle's text: kept as is, it would keep the whole text alive.
    const own = detached(candidate);
    f = makeForms(own);
    forms.set(own, f);
  }
  return f;
}

/** How many names queries have scored (warm or not). */
let scoredSoFar = 0;
/**
 * Past this many names scored, the lookup's code is compiled for speed: warming it is no longer
 * needed. A lookup of a 5,000-bundle tree scores about 5,000 names over 100 indexes: measured, the
 * fourth such lookup of a process runs at its steady speed (1-1.5 ms), the first at 10 ms.
 */
const WARM_SCORES = 40_000;

/** How many names index queries have gone through in this process (what kept answers spare). */
export function namesScored(): number {
  return scoredSoFar;
}

/** Whether queries still run code not yet compiled for speed (see `NameIndex.warm`). */
export function suggestionsCold(): boolean {
  return scoredSoFar < WARM_SCORES;
}

/**
 * Runs lookups as a check makes them (`bestAmong` over one index per domain, as kept suggestions ask) on indexes of
 * `names` made for the purpose, grouped by their domain (the part before the last dot), with typos
 * of them, until the lookup's code is no longer cold (at most four lookups a name): the language
 * server's warm-up does it at start-up, so that the first lookups of a session (and the
 * preparation of the first document opened, which warms the lookup on the tree's own indexes
 * otherwise) do not run it cold. One lookup per step. Keeps no answer: the indexes are dropped.
 */
export function* warmSuggestionsSteps(names: readonly string[]): Generator<void, void> {
  if (names.length === 0) return;
  const byDomain = new Map<string, string[]>();
  for (const name of names) pushAt(byDomain, name.slice(0, Math.max(0, name.lastIndexOf('.'))), name);
  const indexes = [...byDomain.values()].map((group) => new NameIndex(group));
  for (let i = 0; suggestionsCold() && i < names.length * 4; i++) {
    const name = names[(i * 7919) % names.length]!;
    // A typo of a code, a new one each time: no index has its answer yet.
    bestAmong(`X${i}${name.slice(name.lastIndexOf('.') + 2)}`, indexes, 16);
    yield;
  }
}

/**
 * A fixed set of names, arranged so that a query scores only the names that can be near it: the
 * bigrams of each name are listed (postings), a query counts through the postings of its own
 * bigrams how many each name shares with it, and a name sharing too few to be within the distance
 * bound (whole or by its code) and not containing the name (nor contained in it) is passed over
 * without computing a distance. Names of one shape (generated codes, one domain
 * prefix) have lengths too close for a bound on lengths to pass over any.
 */
export class NameIndex {
  /** Unique in the process: what kept suggestions remember an index by. */
  readonly id = nextIndexId++;
  private readonly entries: Forms[] = [];
  /** The names, made when first asked. */
  private nameSet: Set<string> | undefined;
  /** The names this index adds and removes from each of its last few ancestors (nearest first). */
  private ancestors: readonly Change[] = [];
  /** Per bigram, the entries having it (`buildPostings`), made at the first query. */
  private postings: Map<number, Int32Array> | undefined;
  /** Per entry, the bigrams it shares with the last query, packed (`commonBigrams`). */
  private common: Int32Array | undefined;
  /** What `bounds` gives, made at the first query. */
  private boundArray: Float64Array | undefined;
  private wholeBoundArray: Float64Array | undefined;

  /** Per entry, what the bigram bound reads: the code's length, its and the whole name's lower-case lengths, whether qualified. */
  private readonly localLengths: Uint32Array;
  private readonly lowerLocalLengths: Uint32Array;
  private readonly lowerLengths: Uint32Array;
  private readonly qualified: Uint8Array;

  constructor(names: Iterable<string>) {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      this.entries.push(makeForms(name));
    }
    const n = this.entries.length;
    this.localLengths = new Uint32Array(n);
    this.lowerLocalLengths = new Uint32Array(n);
    this.lowerLengths = new Uint32Array(n);
    this.qualified = new Uint8Array(n);
    this.entries.forEach((f, at) => {
      this.localLengths[at] = f.local.length;
      this.lowerLocalLengths[at] = f.localLower.length;
      this.lowerLengths[at] = f.lower.length;
      this.qualified[at] = f.local.length !== f.candidate.length ? 1 : 0;
    });
  }

  /**
   * The index of `names` made after `previous` (the same table's index before an edit): the names
   * it adds and removes from `previous` and its ancestors are kept while few, so that suggestions
   * kept for those can be brought up to date by the names that changed (`util/keptSuggestions.ts`).
   */
  static after(previous: NameIndex | undefined, names: Iterable<string>): NameIndex {
    const index = new NameIndex(names);
    if (previous) index.ancestors = changesSince(previous, index);
    return index;
  }

  /** Whether `name` is one of the index's names. */
  has(name: string): boolean {
    return (this.nameSet ??= new Set(this.entries.map((f) => f.candidate))).has(name);
  }

  /** The names added and removed since the index numbered `id`, when it is a recent ancestor (or this index). */
  changesSince(id: number): Change | undefined {
    if (id === this.id) return { id, added: [], removed: [] };
    return this.ancestors.find((c) => c.id === id);
  }

  /** How many names. */
  get size(): number {
    return this.entries.length;
  }

  /** The names, in order. */
  names(): string[] {
    return this.entries.map((f) => f.candidate);
  }

  /** The changes from each recent ancestor to this index. */
  ancestorChanges(): readonly Change[] {
    return this.ancestors;
  }

  /** Whether the index holds exactly `names`, in this order. */
  holds(names: readonly string[]): boolean {
    return names.length === this.entries.length && names.every((n, i) => this.entries[i]!.candidate === n);
  }

  /**
   * Runs a query without keeping its answer (idle preparation, while `suggestionsCold`): V8 compiles a function for speed
   * only after it ran for a while, so the first real query of a session ran cold, several times slower.
   */
  warm(name: string): void {
    this.query(name);
  }

  /**
   * The names near `name` scoring `cap` at most, in the order of the index; not kept (a kept
   * answer's update asks with the score of its last candidate, which varies).
   */
  within(name: string, cap: number): Scored[] {
    return this.query(name, cap);
  }

  private query(name: string, cap = Infinity): Scored[] {
    const lower = name.toLowerCase();
    const { bound, whole } = this.bounds(name, lower);
    const out: Scored[] = [];
    for (let at = 0; at < this.entries.length; at++) {
      if (!(bound[at]! <= cap)) continue;
      const s = scoreOf(name, lower, this.entries[at]!, whole[at]);
      if (s && s.score <= cap) out.push(s);
    }
    return out;
  }

  /**
   * Adds each entry that may score for `name` to `buckets`, at twice its bound (`bounds`), as the
   * triple (`ip`, its position, the bound of its whole name's distance).
   */
  bounded(name: string, lower: string, ip: number, buckets: number[][]): void {
    const { bound, whole } = this.bounds(name, lower);
    for (let at = 0; at < this.entries.length; at++) {
      const b = bound[at]!;
      if (b !== Infinity) (buckets[b * 2] ??= []).push(ip, at, whole[at]!);
    }
  }

  /**
   * Per entry, a lower bound of its score for `name`, or Infinity when it cannot score; and of a
   * qualified entry's whole name's distance. An edit changes two bigrams at most, and a length
   * difference costs one edit each: strings sharing `s` bigrams are at least
   * max((max(|a|, |b|) - 1 - s) / 2, ||a| - |b||) apart (the q-gram lemma). A qualified name's
   * score is the lesser of its whole distance and its code's plus half a point. Past its limit,
   * only a name containing `name` (or contained in it) scores, the limit at most: a contained
   * string shares all its bigrams, so containing is tested only then. Never Infinity for a name
   * `scoreOf` would score. Read from typed arrays: the loop runs over every name of every index
   * asked. Both arrays are the index's own, valid until its next query.
   */
  private bounds(name: string, lower: string): { bound: Float64Array; whole: Float64Array } {
    const common = this.commonBigrams(lower);
    scoredSoFar += this.entries.length;
    const bound = (this.boundArray ??= new Float64Array(this.entries.length));
    const wholeBound = (this.wholeBoundArray ??= new Float64Array(this.entries.length));
    const n = name.length;
    const m = lower.length;
    for (let at = 0; at < this.entries.length; at++) {
      const local = this.localLengths[at]!;
      const lowerLocal = this.lowerLocalLengths[at]!;
      const packed = common[at]!;
      const shared = packed & LOW;
      const longest = n > local ? n : local;
      const limit = longest >= 9 ? Math.floor(longest / 3) : 2;
      let b = lowerBound(m, lowerLocal, shared);
      const whole = this.qualified[at] === 1 ? lowerBound(m, this.lowerLengths[at]!, packed >>> 16) : 0;
      if (this.qualified[at] === 1) b = Math.min(b + 0.5, whole);
      if (b > limit) {
        const f = this.entries[at]!;
        b = local >= 4 && shared >= (m < lowerLocal ? m : lowerLocal) - 1 && (lower.includes(f.localLower) || f.localLower.includes(lower)) ? limit : Infinity;
      }
      bound[at] = b;
      wholeBound[at] = whole;
    }
    return { bound, whole: wholeBound };
  }

  /**
   * The score of the entry at `at` for `name` (`lower`: its lower case), or undefined when too far;
   * `wholeAtLeast` as `bounded` found it.
   */
  scoreAt(at: number, name: string, lower: string, wholeAtLeast: number): Scored | undefined {
    return scoreOf(name, lower, this.entries[at]!, wholeAtLeast);
  }

  /**
   * How many bigrams (with their repeats) each entry shares with `lower`, in its whole lower-case
   * name (the high 16 bits) and in its code (the low 16): counted through the postings of the
   * query's bigrams, without visiting the entries that share none. A bigram the query has once
   * adds a posting's precomputed count, one write per entry: the loop runs over most entries of
   * every index for names of one shape.
   */
  private commonBigrams(lower: string): Int32Array {
    const postings = (this.postings ??= buildPostings(this.entries));
    const common = (this.common ??= new Int32Array(this.entries.length));
    common.fill(0);
    for (const [gram, times] of bigramsOf(lower)) {
      const list = postings.get(gram);
      if (!list) continue;
      if (times === 1) {
        for (let i = 0; i < list.length; i += 3) {
          const at = list[i]!;
          common[at] = common[at]! + list[i + 2]!;
        }
        continue;
      }
      for (let i = 0; i < list.length; i += 3) {
        const packed = list[i + 1]!;
        const whole = packed >>> 16;
        const local = packed & LOW;
        const at = list[i]!;
        common[at] = common[at]! + (((whole < times ? whole : times) << 16) | (local < times ? local : times));
      }
    }
    return common;
  }


}

let nextIndexId = 1;

/** A lower bound of the edit distance of strings of lengths `a` and `b` sharing `shared` bigrams. */
function lowerBound(a: number, b: number, shared: number): number {
  const byGrams = Math.ceil(((a > b ? a : b) - 1 - shared) / 2);
  const byLengths = a > b ? a - b : b - a;
  return byGrams > byLengths ? byGrams : byLengths > 0 ? byLengths : 0;
}

/** What an index adds and removes from an ancestor (numbered `id`). */
export interface Change {
  id: number;
  added: readonly string[];
  removed: readonly string[];
  /** The added names as an index, made when first asked (`addedNear`). */
  addedIndex?: NameIndex;
  /** The removed names as a set, made when first asked (`removedBy`). */
  removedSet?: ReadonlySet<string>;
}

/** Whether a change removed `name`. */
export function removedBy(change: Change, name: string): boolean {
  return change.removed.length > 0 && (change.removedSet ??= new Set(change.removed)).has(name);
}

/**
 * The names a change added, as an index made when first asked: a branch switch adds hundreds per
 * table, and each kept answer searches them (the bigram bound passes most over without a distance).
 */
export function addedIndexOfChange(change: Change): NameIndex {
  return (change.addedIndex ??= new NameIndex(change.added));
}

/** How many ancestors an index keeps the changes from, and how many names changed at most. */
const MAX_ANCESTORS = 8;
const MAX_CHANGED = 512;

/** The changes from `previous` to `next`, then from each of `previous`'s ancestors (composed), while few. */
function changesSince(previous: NameIndex, next: NameIndex): Change[] {
  const added: string[] = [];
  const removed: string[] = [];
  for (const name of next.names()) if (!previous.has(name)) added.push(name);
  for (const name of previous.names()) if (!next.has(name)) removed.push(name);
  if (added.length + removed.length > MAX_CHANGED) return [];
  const out: Change[] = [{ id: previous.id, added, removed }];
  for (const older of previous.ancestorChanges()) {
    if (out.length >= MAX_ANCESTORS) break;
    // A name removed then added back (or added then removed) is no change since the older one.
    const step = { added: new Set(added), removed: new Set(removed) };
    const before = { added: new Set(older.added), removed: new Set(older.removed) };
    const composed: Change = {
      id: older.id,
      added: [...added.filter((n) => !before.removed.has(n)), ...older.added.filter((n) => !step.removed.has(n))],
      removed: [...older.removed.filter((n) => !step.added.has(n)), ...removed.filter((n) => !before.added.has(n))],
    };
    if (composed.added.length + composed.removed.length > MAX_CHANGED) break;
    out.push(composed);
  }
  return out;
}

/** The bigrams of a string (UTF-16 units, as the distance counts them) with their repeats. */
function bigramsOf(text: string): Map<number, number> {
  if (text === lastBigrams.text) return lastBigrams.grams;
  const grams = new Map<number, number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  lastBigrams = { text, grams };
  return grams;
}
// A query goes through one index per domain with the same name: its bigrams are made once.
let lastBigrams: { text: string; grams: Map<number, number> } = { text: '', grams: new Map() };

/** The low 16 bits of a packed count. */
const LOW = 0xffff;

/**
 * Per bigram, the entries having it as triples: (position, times in the whole name << 16 | times
 * in the code, the same each capped at one: what a query having the bigram once adds).
 */
function buildPostings(entries: readonly Forms[]): Map<number, Int32Array> {
  const lists = new Map<number, number[]>();
  entries.forEach((f, at) => {
    const whole = new Map(bigramsOf(f.lower));
    const local = bigramsOf(f.localLower);
    // A code's bigrams are most often the end of the whole name's, but lower-casing may not keep lengths.
    for (const gram of new Set([...whole.keys(), ...local.keys()])) {
      let list = lists.get(gram);
      if (!list) lists.set(gram, (list = []));
      const w = Math.min(whole.get(gram) ?? 0, LOW);
      const l = Math.min(local.get(gram) ?? 0, LOW);
      list.push(at, (w << 16) | l, ((w > 0 ? 1 : 0) << 16) | (l > 0 ? 1 : 0));
    }
  });
  const postings = new Map<number, Int32Array>();
  for (const [gram, list] of lists) postings.set(gram, Int32Array.from(list));
  return postings;
}

function pushAt<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
