// References inside string values: concepts (natives, the tree's concepts — bare in the bundle's
// domain, qualified in others — and dependency aliases), pipes, models of the deck, and input
// names. Each item documents what it names.

import type { Range } from '../../syntax/types.js';
import { detached } from '../../util/detached.js';
import { nativeMarkdown, writtenSignature } from '../describe.js';
import type { Bundle, ConceptDecl, PipeDecl } from '../../language/model.js';
import { choicesFor, type ModelCatalog, type ModelChoice } from '../../language/modelCatalog.js';
import { NATIVE_CONCEPTS } from '../../language/spec/natives.js';
import { SPECIAL_OUTCOMES } from '../../language/spec/lexical.js';
import type { ModelCategory } from '../../language/spec/values.js';
import type { DomainSymbols, MethodTree } from '../../language/tree.js';
import { ObjectCache } from '../../util/objectCache.js';
import { ResumableBuilds } from '../../util/resumable.js';
import { runSteps } from '../../util/steps.js';
import { fuzzyMatch, markNarrowed, MAX_ITEMS } from './narrow.js';
import type { Completion, LazyDocumentation } from './types.js';

export interface ConceptOptions {
  /** A concept that must not be offered (the one a `refines` belongs to). */
  exclude?: string;
  /** Suffix typed after the reference (`[]`, `?`) is kept: the range covers the reference only. */
  range: Range;
  /** Text appended to each insertion (a closing quote for an unterminated string). */
  close: string;
  /** The reference typed so far names a domain (`legal.`): the bundle's own domain is written too. */
  qualified?: boolean;
  /** The cursor's offset, when the list is narrowed where it is made (CompletionRequest.narrowed). */
  narrowAt?: number;
}

export function conceptCompletions(tree: MethodTree, bundle: Bundle, options: ConceptOptions): Completion[] {
  // Documentation comes on resolve (see LazyDocumentation): one concept at a time. The items come
  // in the order of their sort texts (as a client ranks them), so that a long list is narrowed
  // without sorting it (narrow.ts).
  const domain = bundle.domain?.value;
  const { range, close } = options;
  const make = (t: ConceptTemplate): Completion | undefined => {
    if (t.resolve === undefined) return { label: t.label, kind: 'native', detail: t.detail, documentation: t.documentation!, insertText: t.label + close, range, sortText: t.sortText };
    if (t.resolve.key === options.exclude) return undefined;
    return { label: t.label, kind: 'concept', detail: t.detail, resolve: t.resolve, insertText: t.label + close, range, sortText: t.sortText };
  };
  // A bundle without a domain is in no symbol table: its own concepts still count (ranked first).
  const own = domain === undefined ? sortedTemplates(bundle.concepts.map((c) => conceptTemplate(c.code, `.${c.code}`, firstLine(c), '0'))) : [];
  const templates = treeConceptTemplates(tree, domain, options.qualified === true);
  const dependencies = sortedTemplates(
    (tree.manifest?.dependencies ?? []).map((dep): Completion => ({
      label: `${dep.alias}->`,
      kind: 'module',
      detail: dep.address ? `dependency ${dep.address.value}` : 'dependency',
      documentation: `Concepts of the dependency \`${dep.alias}\`${dep.address ? ` (${dep.address.value}${dep.version ? ` ${dep.version.value}` : ''})` : ''}: write \`${dep.alias}->domain.Concept\`.`,
      insertText: `${dep.alias}->`,
      range,
      sortText: `3${dep.alias}`,
      retrigger: true,
    })),
  );
  if (options.narrowAt !== undefined) {
    const offered = (t: ConceptTemplate): boolean => t.resolve === undefined || t.resolve.key !== options.exclude;
    const narrowed = narrowedList(bundle, range, options.narrowAt, [
      ...[own, templates].map((part): ListPart => ({ length: part.length, offered: (i) => offered(part[i]!), label: (i) => part[i]!.label, make: (i) => make(part[i]!)! })),
      completionsPart(dependencies),
    ]);
    if (narrowed) return narrowed;
  }
  const out: Completion[] = [];
  for (const part of [own, templates]) {
    for (const t of part) {
      const item = make(t);
      if (item) out.push(item);
    }
  }
  for (const d of dependencies) out.push(d);
  return out;
}

/** A part of a list in sort-text order, read by position: which entries are offered, and their items. */
interface ListPart {
  length: number;
  offered(i: number): boolean;
  /** What the typed text is matched against (the item's filter text, else its label). */
  label(i: number): string;
  make(i: number): Completion;
}

/** Items made already, all offered. */
function completionsPart(items: readonly Completion[]): ListPart {
  return { length: items.length, offered: () => true, label: (i) => items[i]!.filterText ?? items[i]!.label, make: (i) => items[i]! };
}

/**
 * What `narrow` keeps of a list longer than MAX_ITEMS (its parts one after the other, in sort-text
 * order, every item on `range`), made without the items it drops: its first MAX_ITEMS matches of
 * the typed text. Undefined when the list is not that long.
 */
function narrowedList(bundle: Bundle, range: Range, offset: number, parts: readonly ListPart[]): Completion[] | undefined {
  let length = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) if (part.offered(i)) length += 1;
  if (length <= MAX_ITEMS) return undefined;
  const typed = bundle.doc.text.slice(range.start, Math.max(range.start, offset)).toLowerCase();
  const out: Completion[] = [];
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      if (out.length === MAX_ITEMS) return markNarrowed(out);
      if (part.offered(i) && fuzzyMatch(typed, part.label(i))) out.push(part.make(i));
    }
  }
  return markNarrowed(out);
}

/** An item of a concept list without its place: the same for every request until the tree's concepts change. */
interface ConceptTemplate {
  label: string;
  detail: string;
  /** Natives (documented at once) have none. */
  resolve?: LazyDocumentation;
  documentation?: string;
  sortText: string;
}

function conceptTemplate(label: string, key: string, detail: string, rank: string): ConceptTemplate {
  return { label, detail, resolve: { kind: 'concept', key }, sortText: `${rank}${label}` };
}

/** Sorted by sort text as lsp/completion.ts compares them (code units), equal ones in their order. */
function sortedTemplates<T extends { sortText?: string; label: string }>(items: T[]): T[] {
  const keyed = items.map((item, i) => ({ item, key: item.sortText ?? item.label, i }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  return keyed.map((k) => k.item);
}

/** How many items a merge step of sorted runs takes (a step of work made ahead at idle). */
const MERGED_PER_STEP = 2048;
/** How many domains' entries a step of making a list reads. */
const DOMAINS_PER_STEP = 2;

const keyOf = (t: { sortText?: string; label: string }): string => t.sortText ?? t.label;

/**
 * The runs (each sorted as sortedTemplates sorts), one after another, as sortedTemplates sorts
 * their concatenation. Runs whose keys do not overlap (a domain's names share its prefix) are
 * put one after another in the order of their first keys; others are merged two by two, equal
 * ones from the earlier run first (a stable merge keeps the order of the whole). Pauses after
 * every MERGED_PER_STEP items.
 */
function* mergedSteps<T extends { sortText?: string; label: string }>(runs: ReadonlyArray<readonly T[]>): Generator<void, readonly T[]> {
  const byFirst = runs.filter((r) => r.length > 0).map((run, i) => ({ run, i, first: keyOf(run[0]!), last: keyOf(run[run.length - 1]!) }));
  byFirst.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.i - b.i));
  let work = 0;
  if (byFirst.every((r, k) => k === 0 || byFirst[k - 1]!.last < r.first)) {
    const out: T[] = [];
    for (const { run } of byFirst) {
      for (const item of run) {
        out.push(item);
        if (++work % MERGED_PER_STEP === 0) yield;
      }
    }
    return out;
  }
  let level = runs.filter((r) => r.length > 0);
  if (level.length === 0) return [];
  while (level.length > 1) {
    const next: Array<readonly T[]> = [];
    for (let r = 0; r < level.length; r += 2) {
      const a = level[r]!;
      const b = level[r + 1];
      if (!b) {
        next.push(a);
        continue;
      }
      const out: T[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length || j < b.length) {
        if (j === b.length || (i < a.length && !(keyOf(b[j]!) < keyOf(a[i]!)))) out.push(a[i++]!);
        else out.push(b[j++]!);
        if (++work % MERGED_PER_STEP === 0) yield;
      }
      next.push(out);
    }
    level = next;
  }
  return level[0]!;
}

const NATIVE_TEMPLATES: readonly ConceptTemplate[] = NATIVE_CONCEPTS.map((native) => ({ label: native.code, detail: 'native concept', documentation: nativeMarkdown(native), sortText: `1${native.code}` }));
const NATIVE_SORTED = sortedTemplates([...NATIVE_TEMPLATES]);

/** The documentation every concept list carries (the natives', made once), for rendering ahead. */
export const NATIVE_DOCUMENTATION: readonly string[] = NATIVE_TEMPLATES.map((t) => t.documentation!);

/** The natives and the tree's concepts as seen from a domain, sorted; remade when a domain's entries change. */
interface TreeConcepts {
  domain: string | undefined;
  qualified: boolean;
  /** The entries each was made from, in the order of the tree's tables. */
  parts: Array<readonly ConceptEntry[]>;
  templates: readonly ConceptTemplate[];
}

// A few lists (the domains of the open documents, bare and qualified), the latest first.
const treeConcepts: TreeConcepts[] = [];
const KEPT_LISTS = 8;

function treeConceptTemplates(tree: MethodTree, domain: string | undefined, qualified: boolean): readonly ConceptTemplate[] {
  return runSteps(treeConceptTemplatesSteps(tree, domain, qualified));
}

function keptConceptList(domain: string | undefined, qualified: boolean, parts: ReadonlyArray<readonly ConceptEntry[]>): readonly ConceptTemplate[] | undefined {
  const at = treeConcepts.findIndex((l) => sameConceptList(l, { domain, qualified, parts }));
  if (at < 0) return undefined;
  const [kept] = treeConcepts.splice(at, 1);
  treeConcepts.unshift(kept!);
  return kept!.templates;
}

/** Which list of concepts: as seen from a domain, bare or qualified, made of these entries. */
interface ConceptListKey {
  domain: string | undefined;
  qualified: boolean;
  parts: ReadonlyArray<readonly ConceptEntry[]>;
}

/** The same parts: the very entries of each table, in order (entries are shared while unchanged). */
function sameParts<P>(a: ReadonlyArray<P>, b: ReadonlyArray<P>): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

function sameConceptList(a: ConceptListKey, b: ConceptListKey): boolean {
  return a.domain === b.domain && a.qualified === b.qualified && sameParts(a.parts, b.parts);
}

const conceptListBuilds = new ResumableBuilds<ConceptListKey, readonly ConceptTemplate[]>(sameConceptList, KEPT_LISTS);

function* treeConceptTemplatesSteps(tree: MethodTree, domain: string | undefined, qualified: boolean): Generator<void, readonly ConceptTemplate[]> {
  const parts: Array<readonly ConceptEntry[]> = [];
  let work = 0;
  for (const [d, table] of tree.symbols) {
    parts.push(conceptEntries(d, table));
    if (++work % DOMAINS_PER_STEP === 0) yield;
  }
  const kept = keptConceptList(domain, qualified, parts);
  if (kept) return kept;
  // The build keeps the domains' names, not the tree (a build left unfinished must not keep a tree alive).
  const domains = [...tree.symbols.keys()];
  return yield* conceptListBuilds.run({ domain, qualified, parts }, () => conceptListSteps(domains, domain, qualified, parts));
}

function* conceptListSteps(domains: readonly string[], domain: string | undefined, qualified: boolean, parts: ReadonlyArray<readonly ConceptEntry[]>): Generator<void, readonly ConceptTemplate[]> {
  const runs: Array<readonly ConceptTemplate[]> = [NATIVE_SORTED];
  let i = 0;
  for (const d of domains) {
    const entries = parts[i++]!;
    // The list's own domain: bare unless the reference typed so far is qualified.
    runs.push(d === domain ? sortedTemplates(entries.map((c) => conceptTemplate(qualified ? c.key : c.code, c.key, c.detail, '0'))) : othersRun(entries));
    if (i % DOMAINS_PER_STEP === 0) yield;
  }
  const templates = yield* mergedSteps(runs);
  treeConcepts.unshift({ domain, qualified, parts: [...parts], templates });
  if (treeConcepts.length > KEPT_LISTS) treeConcepts.pop();
  return templates;
}

// A domain's templates as every other domain's list has them (qualified, ranked after the natives),
// sorted: made once per entries and shared by the lists of every domain, so that a domain's list
// makes only its own domain's templates (a list of a 5,000-bundle tree made 5,000 templates each
// time, alive until the next scavenges copied them: milliseconds of pause after a document opened).
const othersRuns = new ObjectCache<readonly ConceptEntry[], readonly ConceptTemplate[]>('othersRuns');

function othersRun(entries: readonly ConceptEntry[]): readonly ConceptTemplate[] {
  let run = othersRuns.get(entries);
  if (!run) {
    run = sortedTemplates(entries.map((c) => conceptTemplate(c.key, c.key, c.detail, '2')));
    othersRuns.set(entries, run);
  }
  return run;
}

/**
 * Makes ahead, one domain per step, what every concept list of the tree shares: each domain's
 * entries and its templates as the other domains see them (the language server, once the
 * workspace is checked: a document opened then makes only its own domain's part of its list).
 * They are what a list would make on demand: no answer changes.
 */
export function* prepareSharedConceptLists(tree: MethodTree): Generator<void, void> {
  for (const [d, table] of tree.symbols) {
    othersRun(conceptEntries(d, table));
    yield;
  }
}

export interface ConceptEntry {
  code: string;
  /** `domain.Code`. */
  key: string;
  detail: string;
}

// The entries of a domain's concepts, made once per version of its table (tables are replaced,
// not changed, when a bundle of the domain changes: see language/tree.ts). A version whose
// entries are those of the domain's previous version shares its entries (a keystroke in a pipe
// replaces the table but changes no concept): lists made from them are kept. Their strings are
// detached from the bundle's text (the parser cuts them out of it): kept here, a slice would keep
// the whole text of a bundle replaced since.
const entriesOf = new WeakMap<DomainSymbols, readonly ConceptEntry[]>();
const latestEntries = new Map<string, readonly ConceptEntry[]>();

export function conceptEntries(domain: string, table: DomainSymbols): readonly ConceptEntry[] {
  let entries = entriesOf.get(table);
  if (!entries) {
    const latest = latestEntries.get(domain);
    // Compared before anything is made: an update replaces the tables of hundreds of domains
    // whose concepts did not change, and making (detaching) their entries again cost milliseconds
    // inside a completion request.
    entries = latest && entriesMatch(latest, table) ? latest : madeEntries(domain, table, latest);
    latestEntries.set(domain, entries);
    entriesOf.set(table, entries);
  }
  return entries;
}

/**
 * A domain's concept entries made from its table; those of `reuse` (the domain's previous entries)
 * whose concept is unchanged are taken over: files deleted or changed in every domain would
 * otherwise make (and detach) every concept's strings again, inside a completion request.
 */
export function madeEntries(domain: string, table: DomainSymbols, reuse?: readonly ConceptEntry[]): ConceptEntry[] {
  const made: ConceptEntry[] = [];
  const before = reuse && new Map(reuse.map((e) => [e.code, e]));
  for (const [name, decls] of table.concepts) {
    const kept = before?.get(name);
    if (kept && isFirstLine(kept.detail, decls[0]!)) {
      made.push(kept);
      continue;
    }
    const code = detached(name);
    made.push({ code, key: detached(`${domain}.${code}`), detail: detached(firstLine(decls[0]!)) });
  }
  return made;
}

/** Whether `entries` are those `madeEntries` makes of `table` (the key follows from the domain). */
function entriesMatch(entries: readonly ConceptEntry[], table: DomainSymbols): boolean {
  if (entries.length !== table.concepts.size) return false;
  let i = 0;
  for (const [name, decls] of table.concepts) {
    const e = entries[i++]!;
    if (e.code !== name || !isFirstLine(e.detail, decls[0]!)) return false;
  }
  return true;
}

/** Whether `detail` is `firstLine(decl)`, without cutting the line out (no string made per concept). */
function isFirstLine(detail: string, decl: ConceptDecl): boolean {
  const text = decl.description?.value;
  if (text === undefined) return detail === 'concept';
  const end = text.indexOf('\n');
  return end < 0 ? detail === text : detail.length === end && text.startsWith(detail);
}

function firstLine(decl: ConceptDecl): string {
  const text = decl.description?.value;
  if (text === undefined) return 'concept';
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

export interface PipeOptions {
  range: Range;
  close: string;
  /** The pipe holding the reference (a pipe does not call itself). */
  exclude?: PipeDecl;
  /** Outcomes and default_outcome also take `fail` and `continue`. */
  specials: boolean;
  /** `main_pipe` of a bundle: only the bundle's own pipes. */
  ownOnly: boolean;
  /** The reference typed so far names a domain: the bundle's own domain is written too. */
  qualified?: boolean;
  /** The cursor's offset, when the list is narrowed where it is made (CompletionRequest.narrowed). */
  narrowAt?: number;
}

export function pipeCompletions(tree: MethodTree, bundle: Bundle, options: PipeOptions): Completion[] {
  // In the order of the sort texts, as conceptCompletions: the bundle's domain (its own pipes
  // first, then the rest of the domain's), the special outcomes, then the other domains' pipes.
  const domain = bundle.domain?.value;
  const { exclude, range, close } = options;
  const own = (code: string): string => (options.qualified && domain !== undefined ? `${domain}.${code}` : code);
  const excluded = (pipe: { decl: PipeDecl; code: string }): boolean => pipe.decl === exclude || (exclude !== undefined && pipe.code === exclude.code);
  const home: PipeTemplate[] = [];
  const seen = new Set<string>();
  // A label is offered once, by the first to offer it: the bundle, then the tables in order. Only
  // a dotted label (`domain.code`, or a dotted code) can be another domain's too.
  let earlier: Set<string> | undefined;
  const add = (entry: PipeEntry, fromTable: boolean): void => {
    const label = own(entry.code);
    if (seen.has(label) || excluded(entry)) return;
    if (fromTable && label.includes('.') && (earlier ??= labelsBefore(tree, domain)).has(label)) return;
    seen.add(label);
    home.push({ label, detail: entry.detail, resolve: entry.resolve, sortText: `0${label}` });
  };
  for (const p of bundle.pipes) add(pipeEntry(p.code, p), false);
  const table = domain === undefined ? undefined : tree.symbols.get(domain);
  if (!options.ownOnly && table) for (const entry of pipeEntries(domain!, table)) add(entry, true);
  const make = (t: PipeTemplate): Completion => ({ label: t.label, kind: 'pipe', detail: t.detail, resolve: t.resolve, insertText: t.label + close, range, sortText: t.sortText });
  const homeSorted = sortedTemplates(home);
  const specials = !options.specials
    ? []
    : sortedTemplates(
        SPECIAL_OUTCOMES.map((s): Completion => ({
      label: s,
      kind: 'keyword',
      detail: s === 'fail' ? 'stop the run with an error' : 'go on without an output',
      documentation: s === 'fail' ? '`fail`: the run stops with an error when this outcome is chosen.' : '`continue`: the condition produces no output (declare the output `?`).',
          insertText: s + close,
          range,
          sortText: `1${s}`,
        })),
      );
  const others = options.ownOnly ? [] : otherPipeTemplates(tree, domain);
  const clash = home.some((t) => t.label.includes('.'));
  const offered = (t: PipeTemplate): boolean => !clash || !seen.has(t.label);
  if (options.narrowAt !== undefined) {
    const narrowed = narrowedList(bundle, range, options.narrowAt, [
      { length: homeSorted.length, offered: () => true, label: (i) => homeSorted[i]!.label, make: (i) => make(homeSorted[i]!) },
      completionsPart(specials),
      { length: others.length, offered: (i) => offered(others[i]!), label: (i) => others[i]!.label, make: (i) => make(others[i]!) },
    ]);
    if (narrowed) return narrowed;
  }
  const out = homeSorted.map(make);
  for (const s of specials) out.push(s);
  for (const t of others) if (offered(t)) out.push(make(t));
  return out;
}

/** The labels the tables before the domain's offer (qualified). */
function labelsBefore(tree: MethodTree, domain: string | undefined): Set<string> {
  const labels = new Set<string>();
  for (const [d, table] of tree.symbols) {
    if (d === domain) break;
    for (const t of qualifiedPipes(d, table)) labels.add(t.label);
  }
  return labels;
}

interface PipeTemplate {
  label: string;
  detail: string;
  resolve: LazyDocumentation;
  sortText: string;
}

/** A pipe of a table: the declaration offered for its code (a signature only when none implements it). */
interface PipeEntry {
  code: string;
  decl: PipeDecl;
  detail: string;
  resolve: LazyDocumentation;
}

function pipeEntry(code: string, decl: PipeDecl): PipeEntry {
  return { code, decl, detail: writtenSignature(decl), resolve: { kind: 'pipe', key: `${decl.bundle.domain?.value ?? ''}.${decl.code}` } };
}

const pipeEntriesOf = new WeakMap<DomainSymbols, readonly PipeEntry[]>();

function pipeEntries(domain: string, table: DomainSymbols): readonly PipeEntry[] {
  let entries = pipeEntriesOf.get(table);
  if (!entries) {
    entries = [...table.pipes].map(([code, decls]) => pipeEntry(code, decls.find((x) => !x.typeless) ?? decls[0]!));
    pipeEntriesOf.set(table, entries);
  }
  return entries;
}

/** The pipes of the other domains as offered from one (qualified), sorted; remade when one of their tables' pipes change. */
interface OtherPipes {
  domain: string | undefined;
  /** The templates of each other domain, in the order of the tree's tables. */
  parts: Array<readonly PipeTemplate[]>;
  templates: readonly PipeTemplate[];
}

const otherPipes: OtherPipes[] = [];

// A domain's pipes as another domain sees them, per version of its table; a version offering the
// same (a keystroke in a prompt) shares the previous version's templates.
const qualifiedPipesOf = new WeakMap<DomainSymbols, readonly PipeTemplate[]>();
const latestQualifiedPipes = new Map<string, readonly PipeTemplate[]>();

function qualifiedPipes(domain: string, table: DomainSymbols): readonly PipeTemplate[] {
  let templates = qualifiedPipesOf.get(table);
  if (!templates) {
    const made = pipeEntries(domain, table).map((e): PipeTemplate => {
      const label = `${domain}.${e.code}`;
      return { label, detail: e.detail, resolve: e.resolve, sortText: `2${label}` };
    });
    const latest = latestQualifiedPipes.get(domain);
    templates = latest && latest.length === made.length && latest.every((t, i) => t.label === made[i]!.label && t.detail === made[i]!.detail && t.resolve.key === made[i]!.resolve.key) ? latest : made;
    latestQualifiedPipes.set(domain, templates);
    qualifiedPipesOf.set(table, templates);
  }
  return templates;
}

function otherPipeTemplates(tree: MethodTree, domain: string | undefined): readonly PipeTemplate[] {
  pipesAsked = true;
  return runSteps(otherPipeTemplatesSteps(tree, domain));
}

// Whether a completion ever offered the tree's pipes: until then their list (five times the
// concepts') is not made ahead, as it was never needed.
let pipesAsked = false;

function keptPipeList(domain: string | undefined, parts: ReadonlyArray<readonly PipeTemplate[]>): readonly PipeTemplate[] | undefined {
  const at = otherPipes.findIndex((l) => samePipeList(l, { domain, parts }));
  if (at < 0) return undefined;
  const [kept] = otherPipes.splice(at, 1);
  otherPipes.unshift(kept!);
  return kept!.templates;
}

/** Which list of the other domains' pipes: as seen from a domain, made of these entries. */
interface PipeListKey {
  domain: string | undefined;
  parts: ReadonlyArray<readonly PipeTemplate[]>;
}

function samePipeList(a: PipeListKey, b: PipeListKey): boolean {
  return a.domain === b.domain && sameParts(a.parts, b.parts);
}

const pipeListBuilds = new ResumableBuilds<PipeListKey, readonly PipeTemplate[]>(samePipeList, KEPT_LISTS);

function* otherPipeTemplatesSteps(tree: MethodTree, domain: string | undefined): Generator<void, readonly PipeTemplate[]> {
  const parts: Array<readonly PipeTemplate[]> = [];
  let work = 0;
  for (const [d, table] of tree.symbols) {
    if (d === domain) continue;
    parts.push(qualifiedPipes(d, table));
    if (++work % DOMAINS_PER_STEP === 0) yield;
  }
  const kept = keptPipeList(domain, parts);
  if (kept) return kept;
  return yield* pipeListBuilds.run({ domain, parts }, () => pipeListSteps(domain, parts));
}

function* pipeListSteps(domain: string | undefined, parts: ReadonlyArray<readonly PipeTemplate[]>): Generator<void, readonly PipeTemplate[]> {
  // A label met twice (dotted domains) is offered once, as the first table offers it.
  const seen = new Set<string>();
  const runs: PipeTemplate[][] = [];
  for (const part of parts) {
    runs.push(sortedTemplates(part.filter((t) => !seen.has(t.label) && (seen.add(t.label), true))));
    if (runs.length % DOMAINS_PER_STEP === 0) yield;
  }
  const templates = yield* mergedSteps(runs);
  otherPipes.unshift({ domain, parts: [...parts], templates });
  if (otherPipes.length > KEPT_LISTS) otherPipes.pop();
  return templates;
}

/**
 * Makes ahead, in steps, the list a completion of a concept or a pipe reference in `bundle` reads
 * (the language server, once idle, for its open documents): the tree's concepts as the bundle's
 * domain sees them, or the other domains' pipes (and the entries of the domain's own), sorted,
 * once a completion has offered pipes.
 * They are the lists a completion would make (kept per state of the tables' declarations), made
 * earlier; a build left at a pause goes on where it stopped (ResumableBuilds).
 */
export function* prepareCompletionList(tree: MethodTree, bundle: Bundle, kind: 'concepts' | 'pipes'): Generator<void, void> {
  const domain = bundle.domain?.value;
  if (kind === 'concepts') {
    yield* treeConceptTemplatesSteps(tree, domain, false);
    return;
  }
  if (!pipesAsked) return;
  yield* otherPipeTemplatesSteps(tree, domain);
  const table = domain === undefined ? undefined : tree.symbols.get(domain);
  if (table) pipeEntries(domain!, table);
}

const KIND_RANK: Readonly<Record<ModelChoice['kind'], string>> = { alias: '0', preset: '1', waterfall: '2', handle: '3' };
const KIND_WORD: Readonly<Record<ModelChoice['kind'], string>> = { alias: 'alias', preset: 'preset', waterfall: 'waterfall', handle: 'model handle' };

export function modelCompletions(catalog: ModelCatalog, category: ModelCategory | undefined, range: Range, close: string): Completion[] {
  return choicesFor(catalog, category).map((c) => ({
    label: c.reference,
    kind: 'model',
    detail: `${c.category} ${KIND_WORD[c.kind]}${c.detail ? ` · ${c.detail}` : ''}`,
    documentation: `**${c.reference}** — ${c.category} ${KIND_WORD[c.kind]}${c.detail ? `\n\n${c.detail}` : ''}\n\nFrom ${catalog.source}.`,
    insertText: c.reference + close,
    range,
    sortText: `${KIND_RANK[c.kind]}${c.reference}`,
    filterText: c.reference,
  }));
}
