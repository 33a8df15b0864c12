// References inside string values: concepts (natives, the tree's concepts — bare in the bundle's
// domain, qualified in others — and dependency aliases), pipes, models of the deck, and input
// names. Each item documents what it names.

import type { Range } from '../../syntax/types.js';
import { detached } from '../../util/detached.js';
import { nativeMarkdown, writtenSignature } from '../describe.js';
import type { Bundle, ConceptDecl, PipeDecl } from '../model.js';
import { choicesFor, type ModelCatalog, type ModelChoice } from '../modelCatalog.js';
import { NATIVE_CONCEPTS } from '../spec/natives.js';
import { SPECIAL_OUTCOMES } from '../spec/lexical.js';
import type { ModelCategory } from '../spec/values.js';
import type { DomainSymbols, MethodTree } from '../tree.js';
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

const NATIVE_TEMPLATES: readonly ConceptTemplate[] = NATIVE_CONCEPTS.map((native) => ({ label: native.code, detail: 'native concept', documentation: nativeMarkdown(native), sortText: `1${native.code}` }));

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
  const parts: Array<readonly ConceptEntry[]> = [];
  for (const [d, table] of tree.symbols) parts.push(conceptEntries(d, table));
  const at = treeConcepts.findIndex((l) => l.domain === domain && l.qualified === qualified && l.parts.length === parts.length && l.parts.every((p, i) => p === parts[i]));
  if (at >= 0) {
    const [kept] = treeConcepts.splice(at, 1);
    treeConcepts.unshift(kept!);
    return kept!.templates;
  }
  const templates: ConceptTemplate[] = [...NATIVE_TEMPLATES];
  let i = 0;
  for (const d of tree.symbols.keys()) {
    const bare = d === domain && !qualified;
    const rank = d === domain ? '0' : '2';
    for (const c of parts[i++]!) templates.push(conceptTemplate(bare ? c.code : c.key, c.key, c.detail, rank));
  }
  treeConcepts.unshift({ domain, qualified, parts, templates: sortedTemplates(templates) });
  if (treeConcepts.length > KEPT_LISTS) treeConcepts.pop();
  return treeConcepts[0]!.templates;
}

interface ConceptEntry {
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

function conceptEntries(domain: string, table: DomainSymbols): readonly ConceptEntry[] {
  let entries = entriesOf.get(table);
  if (!entries) {
    const made: ConceptEntry[] = [];
    for (const [name, decls] of table.concepts) {
      const code = detached(name);
      made.push({ code, key: detached(`${domain}.${code}`), detail: detached(firstLine(decls[0]!)) });
    }
    const latest = latestEntries.get(domain);
    entries = latest && sameEntries(latest, made) ? latest : made;
    latestEntries.set(domain, entries);
    entriesOf.set(table, entries);
  }
  return entries;
}

function sameEntries(a: readonly ConceptEntry[], b: readonly ConceptEntry[]): boolean {
  return a.length === b.length && a.every((x, i) => x.code === b[i]!.code && x.key === b[i]!.key && x.detail === b[i]!.detail);
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
  const parts: Array<readonly PipeTemplate[]> = [];
  for (const [d, table] of tree.symbols) if (d !== domain) parts.push(qualifiedPipes(d, table));
  const at = otherPipes.findIndex((l) => l.domain === domain && l.parts.length === parts.length && l.parts.every((p, i) => p === parts[i]));
  if (at >= 0) {
    const [kept] = otherPipes.splice(at, 1);
    otherPipes.unshift(kept!);
    return kept!.templates;
  }
  // A label met twice (dotted domains) is offered once, as the first table offers it.
  const seen = new Set<string>();
  const templates = parts.flat().filter((t) => !seen.has(t.label) && (seen.add(t.label), true));
  otherPipes.unshift({ domain, parts, templates: sortedTemplates(templates) });
  if (otherPipes.length > KEPT_LISTS) otherPipes.pop();
  return otherPipes[0]!.templates;
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
