// "Did you mean" answers kept per name asked and scope (a kind of name, from a domain), across
// checks: an answer is brought up to date by the names its indexes added and removed since it was
// made (`NameIndex.changesSince`), so that an update renaming many declarations scores the names
// that changed against each name asked instead of searching every index again. A kept answer
// always equals the search made afresh over the same indexes (test/unit/util/keptSuggestions.test.ts).

import { LRUCache } from 'lru-cache';
import { addedIndexOfChange, bestAmong, byRank, insertRanked, NameIndex, removedBy, type Change, type Scored } from './suggest.js';

/** How many candidates beyond the answer are kept, so that a removed suggestion has a successor at hand. */
const SPARE = 11;

interface Kept {
  /** The index searched at each position, by number. */
  ids: number[];
  /** The best candidates of the whole ranking, in order (its first `kept.length`). */
  kept: Scored[];
  /** Whether `kept` holds every candidate (there were no more). */
  complete: boolean;
}

// Bounded: an entry is a few candidates and a number per index (about 1 KB for 100 domains).
const answers = new LRUCache<string, Kept>({ max: 16_384 });

/**
 * `suggestAmong(name, indexes, max)`, kept under `scope` with `spare` more candidates (what decides which indexes are searched,
 * such as the kind and the asking bundle's domain) and brought up to date when asked again.
 */
export function suggestKept(name: string, indexes: readonly NameIndex[], scope: string, max = 5, spare = SPARE): string[] {
  return keptAmong(name, indexes, scope, max + spare, max).kept.slice(0, max).map((s) => s.candidate);
}

/**
 * The names visible from one place, split by who shares them: `own`, the place's (the natives,
 * its domain's codes bare); `shared`, every domain's codes qualified, the same for every place of
 * the tree but for `hidden`, the place's own domain, whose qualified codes it does not see (it
 * sees them bare): its name and its index among `shared`.
 */
export interface SplitIndexes {
  own: readonly NameIndex[];
  shared: readonly NameIndex[];
  hidden: { domain: string; index: NameIndex | undefined } | undefined;
}

/**
 * `suggestKept` over the own indexes and the shared ones but the hidden domain's. The part of the
 * answer from the shared indexes is kept once for the tree (under `sharedScope`), not once per
 * asking domain: a renamed concept is read from bundles of several domains, and each of them asked
 * the whole tree's names again (a branch switch searched each of its 1,000 new names twice). It is
 * kept with a few more candidates, so that the hidden domain's left out still leave enough.
 */
export function suggestKeptSplit(name: string, split: SplitIndexes, scope: string, sharedScope: string, max = 5, spare = SPARE): string[] {
  const hidden = split.hidden;
  const flat = (): NameIndex[] => [...split.own, ...split.shared.filter((index) => index !== hidden?.index)];
  if (hidden === undefined || !sharingPays(split.shared, hidden.index)) return suggestKept(name, flat(), scope, max, spare);
  const own = keptAmong(name, split.own, `${scope}\u0001own`, max + spare, max);
  const shared = keptAmong(name, split.shared, sharedScope, max + spare + HIDDEN_ROOM, max);
  const prefix = `${hidden.domain}.`;
  // Codes have no dot: a qualified name is of the hidden domain when it is the prefix followed by a code.
  const visible = shared.kept.filter((s) => !(s.candidate.startsWith(prefix) && s.candidate.indexOf('.', prefix.length) < 0));
  // Too many of the kept were the hidden domain's: the answer needs the search without them.
  if (!shared.complete && visible.length < max) return suggestKept(name, flat(), scope, max, spare);
  const merged: Scored[] = [];
  for (const s of own.kept) insertRanked(merged, s, max);
  for (const s of visible) insertRanked(merged, s, max);
  return merged.map((s) => s.candidate);
}

/** How many more candidates the shared part keeps for the hidden domain's. */
const HIDDEN_ROOM = 16;

/**
 * Whether the hidden domain is a small part of the shared names: its qualified names are searched
 * for nothing, which costs less than searching the tree again only when they are few (in a tree of
 * one domain, they are all of the shared names).
 */
function sharingPays(shared: readonly NameIndex[], hidden: NameIndex | undefined): boolean {
  if (hidden === undefined) return true;
  let total = 0;
  for (const index of shared) total += index.size;
  return hidden.size * 4 <= total;
}

/**
 * The first `room` candidates of the indexes' names near `name`, kept under `scope` and brought up
 * to date when asked again; searched afresh when the kept ones cannot be (an index not a recent
 * descendant) or when fewer than `need` are left of an incomplete list.
 */
function keptAmong(name: string, indexes: readonly NameIndex[], scope: string, room: number, need: number): { kept: Scored[]; complete: boolean } {
  const key = `${scope}\u0000${room}\u0000${name}`;
  const known = answers.get(key);
  if (known && update(known, name, indexes, room) && (known.complete || known.kept.length >= need)) return known;
  const { kept, complete } = bestAmong(name, indexes, room);
  const made = { ids: indexes.map((i) => i.id), kept, complete };
  answers.set(key, made);
  return made;
}

/**
 * Applies to `known` the names the indexes added and removed since it was made; false (and `known`
 * to be made again) when an index is not a recent descendant of the one searched then.
 */
function update(known: Kept, name: string, indexes: readonly NameIndex[], room: number): boolean {
  if (known.ids.length !== indexes.length) return false;
  const changes: Change[] = [];
  // Which index changed since which: the answers made in one check share it (see `addedIndexOf`).
  let key = '';
  for (let at = 0; at < indexes.length; at++) {
    const index = indexes[at]!;
    if (index.id === known.ids[at]) continue;
    const change = index.changesSince(known.ids[at]!);
    if (!change) return false;
    if (change.added.length > 0 || change.removed.length > 0) changes.push(change);
    if (change.added.length > 0) key += `${index.id}:${known.ids[at]} `;
  }
  const { kept } = known;
  // A name removed from one index may still be offered by another (a native the domain declared too).
  for (let at = kept.length - 1; at >= 0 && changes.length > 0; at--) {
    const candidate = kept[at]!.candidate;
    if (changes.some((c) => removedBy(c, candidate)) && !indexes.some((i) => i.has(candidate))) kept.splice(at, 1);
  }
  // Of the names added, only the `room` best can enter (any other ranks after them, and the
  // list keeps `room`), and of those only the ones near `name` scoring no more than the last kept.
  // A branch switch adds about a thousand names of one shape: scoring all of them for each kept
  // answer was most of its cost.
  const cap = known.complete ? Infinity : (kept[kept.length - 1]?.score ?? -Infinity);
  const withAdded = changes.filter((c) => c.added.length > 0);
  const addedIndex = withAdded.length === 1 ? addedIndexOfChange(withAdded[0]!) : withAdded.length > 1 ? addedIndexOf(key, withAdded) : undefined;
  const best = addedIndex ? bestAmong(name, [addedIndex], room) : { kept: [], complete: true };
  for (const s of best.kept) {
    if (s.score > cap) break;
    if (kept.some((k) => k.candidate === s.candidate)) continue;
    // Past the last kept of an incomplete list, a candidate's place among those not kept is unknown: left out, the list stays the ranking's start.
    const last = kept[kept.length - 1];
    if (!known.complete && (last === undefined || byRank(s, last) >= 0)) continue;
    let at = kept.length;
    while (at > 0 && byRank(s, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, s);
    if (kept.length > room) {
      kept.pop();
      known.complete = false;
    }
  }
  // Added names left out of the search's answer are candidates the list does not hold.
  if (!best.complete) known.complete = false;
  return sameIds(known, indexes);
}

// The names several changes added, as one index: the answers made in one check ask after the same
// changes (a branch switch changes every domain's table), and one index of them all is searched
// once per answer instead of once per table.
const addedIndexes = new LRUCache<string, NameIndex>({ max: 16 });

function addedIndexOf(key: string, changes: readonly Change[]): NameIndex {
  let index = addedIndexes.get(key);
  if (!index) addedIndexes.set(key, (index = new NameIndex(changes.flatMap((c) => c.added))));
  return index;
}

function sameIds(known: Kept, indexes: readonly NameIndex[]): true {
  for (let at = 0; at < indexes.length; at++) known.ids[at] = indexes[at]!.id;
  return true;
}
