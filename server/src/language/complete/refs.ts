// References inside string values: concepts (natives, the tree's concepts — bare in the bundle's
// domain, qualified in others — and dependency aliases), pipes, models of the deck, and input
// names. Each item documents what it names.

import type { Range } from '../../syntax/types.js';
import { nativeMarkdown, writtenSignature } from '../describe.js';
import type { Bundle, ConceptDecl, PipeDecl } from '../model.js';
import { choicesFor, type ModelCatalog, type ModelChoice } from '../modelCatalog.js';
import { NATIVE_CONCEPTS } from '../spec/natives.js';
import { SPECIAL_OUTCOMES } from '../spec/lexical.js';
import type { ModelCategory } from '../spec/values.js';
import type { DomainSymbols, MethodTree } from '../tree.js';
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
}

export function conceptCompletions(tree: MethodTree, bundle: Bundle, options: ConceptOptions): Completion[] {
  // Documentation comes on resolve (see LazyDocumentation): one concept at a time. The items come
  // in the order of their sort texts (as a client ranks them), so that a long list is narrowed
  // without sorting it (lsp/completion.ts).
  const out: Completion[] = [];
  const domain = bundle.domain?.value;
  const { range, close } = options;
  const emit = (t: ConceptTemplate): void => {
    if (t.resolve === undefined) {
      out.push({ label: t.label, kind: 'native', detail: t.detail, documentation: t.documentation!, insertText: t.label + close, range, sortText: t.sortText });
    } else if (t.resolve.key !== options.exclude) {
      out.push({ label: t.label, kind: 'concept', detail: t.detail, resolve: t.resolve, insertText: t.label + close, range, sortText: t.sortText });
    }
  };
  // A bundle without a domain is in no symbol table: its own concepts still count (ranked first).
  if (domain === undefined) sortedTemplates(bundle.concepts.map((c) => conceptTemplate(c.code, `.${c.code}`, firstLine(c), '0'))).forEach(emit);
  for (const t of treeConceptTemplates(tree, domain, options.qualified === true)) emit(t);
  const dependencies = (tree.manifest?.dependencies ?? []).map((dep): Completion => ({
    label: `${dep.alias}->`,
    kind: 'module',
    detail: dep.address ? `dependency ${dep.address.value}` : 'dependency',
    documentation: `Concepts of the dependency \`${dep.alias}\`${dep.address ? ` (${dep.address.value}${dep.version ? ` ${dep.version.value}` : ''})` : ''}: write \`${dep.alias}->domain.Concept\`.`,
    insertText: `${dep.alias}->`,
    range,
    sortText: `3${dep.alias}`,
    retrigger: true,
  }));
  for (const d of sortedTemplates(dependencies)) out.push(d);
  return out;
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
// replaces the table but changes no concept): lists made from them are kept.
const entriesOf = new WeakMap<DomainSymbols, readonly ConceptEntry[]>();
const latestEntries = new Map<string, readonly ConceptEntry[]>();

function conceptEntries(domain: string, table: DomainSymbols): readonly ConceptEntry[] {
  let entries = entriesOf.get(table);
  if (!entries) {
    const made: ConceptEntry[] = [];
    for (const [code, decls] of table.concepts) made.push({ code, key: `${domain}.${code}`, detail: firstLine(decls[0]!) });
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
}

export function pipeCompletions(tree: MethodTree, bundle: Bundle, options: PipeOptions): Completion[] {
  const out: Completion[] = [];
  const domain = bundle.domain?.value;
  const seen = new Set<string>();
  const add = (label: string, pipe: PipeDecl, rank: string): void => {
    if (seen.has(label) || pipe === options.exclude || (options.exclude && pipe.code === options.exclude.code && pipe.bundle.domain?.value === domain)) return;
    seen.add(label);
    out.push({
      label,
      kind: 'pipe',
      detail: writtenSignature(pipe),
      resolve: { kind: 'pipe', key: `${pipe.bundle.domain?.value ?? ''}.${pipe.code}` },
      insertText: label + options.close,
      range: options.range,
      sortText: `${rank}${label}`,
    });
  };
  const own = (code: string): string => (options.qualified && domain !== undefined ? `${domain}.${code}` : code);
  for (const p of bundle.pipes) add(own(p.code), p, '0');
  if (!options.ownOnly) {
    for (const [d, table] of tree.symbols) {
      for (const [code, decls] of table.pipes) {
        const decl = decls.find((x) => !x.typeless) ?? decls[0]!;
        if (d === domain) add(own(code), decl, '0');
        else add(`${d}.${code}`, decl, '2');
      }
    }
  }
  if (options.specials) {
    for (const s of SPECIAL_OUTCOMES) {
      out.push({
        label: s,
        kind: 'keyword',
        detail: s === 'fail' ? 'stop the run with an error' : 'go on without an output',
        documentation: s === 'fail' ? '`fail`: the run stops with an error when this outcome is chosen.' : '`continue`: the condition produces no output (declare the output `?`).',
        insertText: s + options.close,
        range: options.range,
        sortText: `1${s}`,
      });
    }
  }
  return out;
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
