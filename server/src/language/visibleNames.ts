// The names visible from a bundle (natives, its domain bare, the other domains qualified), as
// suggestion indexes: one per symbol table, made once per version of the table (tables are
// replaced, never changed, when a bundle of their domain changes), so that the suggestions of a
// check after a keystroke read again only the edited domain's names.

import { LRUCache } from 'lru-cache';
import { lazy } from '../util/lazy.js';
import { NameIndex, suggestionsCold } from '../util/suggest.js';
import type { SplitIndexes } from '../util/keptSuggestions.js';
import type { Bundle } from './model.js';
import { NATIVE_CONCEPTS } from './spec/natives.js';
import { noteWide, type DomainSymbols, type MethodTree } from './tree.js';
import { ObjectCache } from '../util/objectCache.js';

const NATIVES = new NameIndex(NATIVE_CONCEPTS.map((c) => c.code));

// By table: its codes bare (the bundle's own domain) or qualified with the domain (the others).
const bareIndexes = new ObjectCache<ReadonlyMap<string, unknown>, NameIndex>('bareIndexes');
const qualifiedIndexes = new ObjectCache<ReadonlyMap<string, unknown>, NameIndex>('qualifiedIndexes');
// By bundle outside its domain's table: its pipes, then the rest of its domain's.
const ownPipeIndexes = new ObjectCache<Bundle, { table: ReadonlyMap<string, unknown> | undefined; index: NameIndex }>('ownPipeIndexes');

// The latest index of each domain's names: a new version of a table with the same names (a
// keystroke in a pipe of the domain) shares it, and the answers it keeps. Bounded: a runner checks
// bundles of ever new domains, and a workspace past the bound only builds an index again.
const latest = lazy(() => new LRUCache<string, NameIndex>({ max: 4096 }));

function indexOf(cache: ObjectCache<ReadonlyMap<string, unknown>, NameIndex>, table: ReadonlyMap<string, unknown>, key: string, names: () => string[]): NameIndex {
  let index = cache.get(table);
  if (!index) {
    const list = names();
    const previous = latest().get(key);
    index = previous?.holds(list) ? previous : NameIndex.after(previous, list);
    latest().set(key, index);
    cache.set(table, index);
  }
  return index;
}

/** The index of a domain's codes of one kind, qualified with the domain (as other domains see them). */
function qualifiedIndex(d: string, table: DomainSymbols, kind: 'concepts' | 'pipes'): NameIndex {
  const codes = table[kind];
  return indexOf(qualifiedIndexes, codes, `${kind} ${d}.`, () => [...codes.keys()].map((code) => `${d}.${code}`));
}

function othersQualified(tree: MethodTree, domain: string | undefined, kind: 'concepts' | 'pipes', out: NameIndex[]): NameIndex[] {
  for (const [d, table] of tree.symbols) if (d !== domain) out.push(qualifiedIndex(d, table, kind));
  return out;
}

/**
 * The natives and every concept code visible from a bundle (same domain bare, others qualified).
 * `asked`: the name suggestions are looked for (a check then depends on the names near it only).
 */
export function conceptNameIndexes(tree: MethodTree, from: Bundle, asked?: string): NameIndex[] {
  return othersQualified(tree, from.domain?.value, 'concepts', ownConceptIndexes(tree, from, asked));
}

/** The natives and the bundle's domain's concept codes bare. */
function ownConceptIndexes(tree: MethodTree, from: Bundle, asked: string | undefined): NameIndex[] {
  const domain = from.domain?.value;
  noteWide(asked === undefined ? undefined : { kind: 'c', domain, name: asked });
  const table = domain === undefined ? undefined : tree.symbols.get(domain)?.concepts;
  const own = table && from.concepts.every((c) => table.has(c.code)) ? indexOf(bareIndexes, table, `concepts ${domain}`, () => [...table.keys()]) : new NameIndex([...(table?.keys() ?? []), ...from.concepts.map((c) => c.code)]);
  return [NATIVES, own];
}

/** Every pipe code visible from a bundle (its own first, same domain bare, others qualified); `asked` as for concepts. */
export function pipeNameIndexes(tree: MethodTree, from: Bundle, asked?: string): NameIndex[] {
  return othersQualified(tree, from.domain?.value, 'pipes', [ownPipeIndex(tree, from, asked)]);
}

function ownPipeIndex(tree: MethodTree, from: Bundle, asked: string | undefined): NameIndex {
  const domain = from.domain?.value;
  noteWide(asked === undefined ? undefined : { kind: 'p', domain, name: asked });
  pipesAsked = true;
  const table = domain === undefined ? undefined : tree.symbols.get(domain)?.pipes;
  // A bundle of the tree declares nothing its domain's table lacks: the table's index is the same names.
  if (table && from.pipes.every((p) => table.has(p.code))) return indexOf(bareIndexes, table, `pipes ${domain}`, () => [...table.keys()]);
  let own = ownPipeIndexes.get(from);
  if (!own || own.table !== table) {
    own = { table, index: new NameIndex([...from.pipes.map((p) => p.code), ...(table?.keys() ?? [])]) };
    ownPipeIndexes.set(from, own);
  }
  return own.index;
}

/**
 * The names `conceptNameIndexes` or `pipeNameIndexes` give, split into the bundle's own indexes
 * and every domain's qualified ones (its own domain's included, `hidden`): the latter are the
 * same from every bundle of the tree, so that a name asked from several domains is searched
 * among them once (`util/keptSuggestions.ts` `suggestKeptSplit`).
 */
export function splitNameIndexes(tree: MethodTree, from: Bundle, kind: 'concepts' | 'pipes', asked: string): SplitIndexes {
  const own = kind === 'concepts' ? ownConceptIndexes(tree, from, asked) : [ownPipeIndex(tree, from, asked)];
  const domain = from.domain?.value;
  const shared = sharedIndexes(tree, kind);
  return { own, shared: shared.list, hidden: domain === undefined ? undefined : { domain, index: shared.byDomain.get(domain) } };
}

interface SharedIndexes {
  list: NameIndex[];
  byDomain: Map<string, NameIndex>;
}

// By symbols map (a tree's version of them, never changed once made): every domain's qualified
// index of one kind, made once for the suggestions of a whole check, not once per name asked.
const sharedByKind = new ObjectCache<ReadonlyMap<string, DomainSymbols>, { concepts?: SharedIndexes; pipes?: SharedIndexes }>('sharedIndexes');

function sharedIndexes(tree: MethodTree, kind: 'concepts' | 'pipes'): SharedIndexes {
  let entry = sharedByKind.get(tree.symbols);
  if (!entry) sharedByKind.set(tree.symbols, (entry = {}));
  let shared = entry[kind];
  if (!shared) {
    shared = { list: [], byDomain: new Map() };
    for (const [d, table] of tree.symbols) {
      const index = qualifiedIndex(d, table, kind);
      shared.list.push(index);
      shared.byDomain.set(d, index);
    }
    entry[kind] = shared;
  }
  return shared;
}

// Whether a check ever suggested pipe names: until then the pipes' indexes (five times the names
// of the concepts') are not made ahead, as they were never needed.
let pipesAsked = false;

/**
 * Makes ahead, one domain per step, the indexes of the tables of one kind that
 * `conceptNameIndexes` or `pipeNameIndexes` give for a bundle of the tree (the language server,
 * once idle, for its open documents: the first broken reference after a change of the tables
 * then finds them made); pipes once a check has suggested pipe names. The bundle's own pipes are left out: an index per version of the bundle,
 * which the next keystroke replaces. While the lookup's code is still cold (`suggestionsCold`),
 * each index also runs a query whose answer is not kept, on a name shaped as a typo of the
 * bundle's. Changes no answer: the indexes are those a lookup makes.
 */
export function* prepareNameIndexes(tree: MethodTree, from: Bundle, kind: 'concepts' | 'pipes'): Generator<void, void> {
  if (kind === 'pipes' && !pipesAsked) return;
  const probe = `X${(kind === 'concepts' ? from.concepts[0]?.code : from.pipes[0]?.code) ?? 'Name'}`;
  yield* qualifiedIndexSteps(tree, kind, from.domain?.value, () => probe);
  if (kind === 'concepts') for (const index of conceptNameIndexes(tree, from).slice(0, 2)) if (suggestionsCold()) index.warm(probe);
}

/**
 * Makes ahead, one domain per step, the index of every domain's concepts qualified (what
 * `conceptNameIndexes` gives for a bundle of any other domain): the language server, once the
 * workspace is checked, so that the first broken concept reference typed in any tree finds them
 * made. While the lookup's code is cold, each index also runs a query whose answer is not kept.
 */
export function* prepareQualifiedConceptIndexes(tree: MethodTree): Generator<void, void> {
  yield* qualifiedIndexSteps(tree, 'concepts', undefined, (table) => `X${table.concepts.keys().next().value ?? 'Name'}`);
}

/** The qualified index of each domain but `except`, one per step; each warmed on `probe` while the lookup is cold. */
function* qualifiedIndexSteps(tree: MethodTree, kind: 'concepts' | 'pipes', except: string | undefined, probe: (table: DomainSymbols) => string): Generator<void, void> {
  for (const [d, table] of tree.symbols) {
    if (d === except) continue;
    const index = qualifiedIndex(d, table, kind);
    if (suggestionsCold()) index.warm(probe(table));
    yield;
  }
}
