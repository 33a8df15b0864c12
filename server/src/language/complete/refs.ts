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
import type { Completion } from './types.js';

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
  // Documentation comes on resolve (see LazyDocumentation): one concept at a time.
  const out: Completion[] = [];
  const domain = bundle.domain?.value;
  const { range, close } = options;
  for (const native of NATIVE_CONCEPTS) {
    out.push({ label: native.code, kind: 'native', detail: 'native concept', documentation: nativeMarkdown(native), insertText: native.code + close, range, sortText: `1${native.code}` });
  }
  const add = (label: string, key: string, detail: string, rank: string): void => {
    if (key === options.exclude) return;
    out.push({ label, kind: 'concept', detail, resolve: { kind: 'concept', key }, insertText: label + close, range, sortText: `${rank}${label}` });
  };
  for (const [d, table] of tree.symbols) {
    const bare = d === domain && !options.qualified;
    const rank = d === domain ? '0' : '2';
    for (const c of conceptEntries(d, table)) add(bare ? c.code : c.key, c.key, c.detail, rank);
  }
  // A bundle without a domain is in no symbol table: its own concepts still count.
  if (domain === undefined) for (const c of bundle.concepts) add(c.code, `.${c.code}`, firstLine(c), '0');
  for (const dep of tree.manifest?.dependencies ?? []) {
    out.push({
      label: `${dep.alias}->`,
      kind: 'module',
      detail: dep.address ? `dependency ${dep.address.value}` : 'dependency',
      documentation: `Concepts of the dependency \`${dep.alias}\`${dep.address ? ` (${dep.address.value}${dep.version ? ` ${dep.version.value}` : ''})` : ''}: write \`${dep.alias}->domain.Concept\`.`,
      insertText: `${dep.alias}->`,
      range,
      sortText: `3${dep.alias}`,
      retrigger: true,
    });
  }
  return out;
}

interface ConceptEntry {
  code: string;
  /** `domain.Code`. */
  key: string;
  detail: string;
}

// The entries of a domain's concepts, made once per version of its table (tables are replaced,
// not changed, when a bundle of the domain changes: see language/tree.ts).
const entriesOf = new WeakMap<DomainSymbols, ConceptEntry[]>();

function conceptEntries(domain: string, table: DomainSymbols): ConceptEntry[] {
  let entries = entriesOf.get(table);
  if (!entries) {
    entries = [];
    for (const [code, decls] of table.concepts) entries.push({ code, key: `${domain}.${code}`, detail: firstLine(decls[0]!) });
    entriesOf.set(table, entries);
  }
  return entries;
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
