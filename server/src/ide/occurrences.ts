// Every named thing a bundle declares or mentions, with the exact range of its name and a canonical
// key shared by a declaration and all its references: the one index behind definition, references,
// highlight, rename, hover and semantic tokens.
//
// Keys:
//   concept            `domain.Code` (declared or resolved), `native.Code`; unresolved or external
//                      references keep their written text (`alias->dom.Code`, `Unknwn`)
//   pipe               `domain.code` (a signature and its implementation share it)
//   input              `domain.pipe#name`: the declaration in `inputs` and the reads of it in the same
//                      pipe (template reads, construct `from` roots, `input_list_name`, step `from` and
//                      `batch_over` roots that no earlier step stored). A step pipe's input of the same
//                      name is another symbol: it is the callee's (so are `batch_as` and
//                      `input_item_name`, which name the callee's input: not listed).
//   template-variable  a read in a template: same key as the input it reads (`domain.pipe#name`),
//                      declared or not; the kind says the site is inside a template
//   result             `domain.pipe#result:name`: each step storing it (declaration) and the `from` /
//                      `batch_over` roots of later steps reading it
//   model              the model reference as written (`$writing-factual`, `gpt-4o`)
//   pipe-type          the type name (`PipeLLM`), from `type` and `signature_for`
//   domain             the domain code, from `domain = "..."` and the domain part of qualified refs
//
// Ranges cover the name only: the code part of a reference (no quotes, prefix, domain, multiplicity
// or marker), a key without its quotes, the root of a template path without its sigil.

import { getEntry } from '../syntax/lookup.js';
import type { LString, LValue, Range } from '../syntax/types.js';
import { stringSliceRange } from '../language/buildBundle.js';
import type { Bundle, ConceptRefSite, PipeDecl, PipeRefSite } from '../language/model.js';
import { parsePipeRef, type ParsedRef } from '../language/references.js';
import { RUNTIME_TEMPLATE_NAMES } from '../language/spec/lexical.js';
import { analyzeTemplate } from '../language/templates/analyze.js';
import { templateSites } from '../language/templates/sites.js';
import { resolveConcept, resolvePipe, type MethodTree } from '../language/tree.js';
import { ObjectCache } from '../util/objectCache.js';

export type OccurrenceKind = 'concept' | 'pipe' | 'input' | 'result' | 'template-variable' | 'model' | 'pipe-type' | 'domain';

export interface Occurrence {
  kind: OccurrenceKind;
  key: string;
  file: string;
  range: Range;
  role: 'declaration' | 'reference';
}

/** A reference whose key depends on the tree (resolved on demand, so parsing is shared). */
type Pending =
  | { kind: 'concept-ref'; ref: ParsedRef; raw: string; range: Range }
  | { kind: 'pipe-ref'; ref: ParsedRef; raw: string; range: Range }
  | { kind: 'fixed'; occurrence: Occurrence };

// Tree-independent collection (templates analysed once per bundle object), then the keys per tree:
// a tree is rebuilt at each check while most bundle objects are reused.
const collected = new ObjectCache<Bundle, Pending[]>('collected');
// By tree, then by bundle: an entry never keeps an older tree (and its bundle versions) alive.
const resolved = new ObjectCache<MethodTree, WeakMap<Bundle, readonly Occurrence[]>>('resolved');

/** Every occurrence of a bundle, in source order (cached per bundle and tree). */
export function occurrencesOf(tree: MethodTree, bundle: Bundle): readonly Occurrence[] {
  let ofTree = resolved.get(tree);
  if (!ofTree) resolved.set(tree, (ofTree = new WeakMap()));
  const cached = ofTree.get(bundle);
  if (cached) return cached;
  let pending = collected.get(bundle);
  if (!pending) {
    pending = collect(bundle);
    collected.set(bundle, pending);
  }
  const list = pending.map((p) => resolve(tree, bundle, p));
  list.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  ofTree.set(bundle, list);
  return list;
}

/** The occurrence under an offset (a cursor touching either end of a name counts). */
export function occurrenceAt(tree: MethodTree, bundle: Bundle, offset: number): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const o of occurrencesOf(tree, bundle)) {
    if (o.range.start > offset) break;
    if (offset > o.range.end) continue;
    // Inside beats touching the end; the narrower wins among equals.
    if (!best || (best.range.end === offset && o.range.end > offset) || o.range.end - o.range.start < best.range.end - best.range.start) best = o;
  }
  return best;
}

export function conceptKeyOf(domain: string | undefined, code: string): string {
  return domain !== undefined ? `${domain}.${code}` : code;
}

export function pipeKeyOf(domain: string | undefined, code: string): string {
  return domain !== undefined ? `${domain}.${code}` : code;
}

export function inputKeyOf(pipe: PipeDecl, name: string): string {
  return `${pipeKeyOf(pipe.bundle.domain?.value, pipe.code)}#${name}`;
}

export function resultKeyOf(pipe: PipeDecl, name: string): string {
  return `${pipeKeyOf(pipe.bundle.domain?.value, pipe.code)}#result:${name}`;
}

function resolve(tree: MethodTree, bundle: Bundle, p: Pending): Occurrence {
  if (p.kind === 'fixed') return p.occurrence;
  const written = p.raw.slice(p.ref.refStart, p.ref.refEnd);
  let key = written;
  if (p.kind === 'concept-ref') {
    const r = resolveConcept(tree, bundle, p.ref);
    if (r.kind === 'native') key = `native.${r.native.code}`;
    else if (r.kind === 'concept') key = conceptKeyOf(r.decl.bundle.domain?.value, r.decl.code);
    return { kind: 'concept', key, file: bundle.file, range: p.range, role: 'reference' };
  }
  const r = resolvePipe(tree, bundle, p.ref);
  if (r.kind === 'pipe') key = pipeKeyOf(r.decl.bundle.domain?.value, r.decl.code);
  return { kind: 'pipe', key, file: bundle.file, range: p.range, role: 'reference' };
}

function collect(bundle: Bundle): Pending[] {
  const out: Pending[] = [];
  const file = bundle.file;
  const domain = bundle.domain?.value;
  const fixed = (kind: OccurrenceKind, key: string, range: Range, role: Occurrence['role']): void => {
    out.push({ kind: 'fixed', occurrence: { kind, key, file, range, role } });
  };
  const text = bundle.doc.text;

  const domainNode = getEntry(bundle.doc.root, 'domain')?.value;
  if (domainNode?.type === 'string' && domainNode.value !== '') fixed('domain', domainNode.value, contentRange(domainNode), 'declaration');

  const conceptRef = (site: ConceptRefSite | undefined): void => {
    if (!site?.ref) return;
    refDomain(site.node, site.ref, fixed);
    out.push({ kind: 'concept-ref', ref: site.ref, raw: site.raw, range: stringSliceRange(site.node, site.ref.codeStart, site.ref.codeEnd) });
  };
  const pipeRef = (site: PipeRefSite | { node: LString; ref?: ParsedRef; raw: string; special?: boolean }): void => {
    if (site.special || !site.ref) return;
    refDomain(site.node, site.ref, fixed);
    out.push({ kind: 'pipe-ref', ref: site.ref, raw: site.raw, range: stringSliceRange(site.node, site.ref.codeStart, site.ref.codeEnd) });
  };

  if (bundle.mainPipe) {
    const parsed = parsePipeRef(bundle.mainPipe.value);
    if (parsed.ok) pipeRef({ node: bundle.mainPipe.node, ref: parsed.value, raw: bundle.mainPipe.value });
  }

  for (const concept of bundle.concepts) {
    fixed('concept', conceptKeyOf(domain, concept.code), unquoted(text, concept.codeRange), 'declaration');
    conceptRef(concept.refines);
    for (const field of concept.structure ?? []) {
      conceptRef(field.conceptRef);
      conceptRef(field.itemConceptRef);
    }
  }

  for (const pipe of bundle.pipes) {
    fixed('pipe', pipeKeyOf(domain, pipe.code), unquoted(text, pipe.codeRange), 'declaration');
    const typeNode = getEntry(pipe.table, 'type')?.value;
    if (typeNode?.type === 'string' && typeNode.value.trim() !== '') fixed('pipe-type', typeNode.value.trim(), contentRange(typeNode, true), 'reference');
    const signatureFor = getEntry(pipe.table, 'signature_for')?.value;
    if (signatureFor?.type === 'string' && signatureFor.value.trim() !== '') fixed('pipe-type', signatureFor.value.trim(), contentRange(signatureFor, true), 'reference');
    for (const input of pipe.inputs) {
      fixed('input', inputKeyOf(pipe, input.name), unquoted(text, input.nameRange), 'declaration');
      conceptRef(input.ref);
    }
    conceptRef(pipe.output);
    for (const site of pipe.pipeRefs) pipeRef(site);
    collectModels(pipe, fixed);
    collectTemplateReads(pipe, fixed);
    collectFlow(pipe, fixed);
  }
  collectTableSegments(bundle, out, fixed);
  return out;
}

/**
 * A concept or pipe named again by a later header or dotted key (`[concept.Invoice.structure]`,
 * `[pipe.p.inputs]`, `[pipe.p.inputs.name]`): these segments are part of the declaration, and a
 * rename must change them too.
 */
function collectTableSegments(bundle: Bundle, out: readonly Pending[], emit: Emit): void {
  const text = bundle.doc.text;
  const domain = bundle.domain?.value;
  const seen = new Set<number>();
  for (const p of out) if (p.kind === 'fixed' && p.occurrence.role === 'declaration') seen.add(p.occurrence.range.start);
  // The key path of each statement: a key/value's is its table's header's keys (their places not
  // its own: named there) then its own keys. Read in place, without a path made per statement (a
  // bundle of thousands of pipes has tens of thousands of statements, read at each change).
  let header: readonly { name: string }[] = [];
  for (const st of bundle.doc.statements) {
    if (st.kind !== 'header' && st.kind !== 'keyvalue') continue;
    const inherited = st.kind === 'header' ? 0 : header.length;
    if (st.kind === 'header') header = st.key;
    const length = inherited + st.key.length;
    const name = (i: number): string | undefined => (i < inherited ? header[i]!.name : st.key[i - inherited]?.name);
    const at = (i: number): Range | undefined => {
      const seg = i < inherited ? undefined : st.key[i - inherited];
      if (seg?.range === undefined) return undefined;
      const range = unquoted(text, seg.range);
      return seen.has(range.start) ? undefined : range;
    };
    const table = name(0);
    const code = name(1);
    if (code === undefined || length < 3) continue;
    const codeRange = at(1);
    if (table === 'concept' && codeRange) emit('concept', conceptKeyOf(domain, code), codeRange, 'declaration');
    if (table !== 'pipe') continue;
    const pipeKey = pipeKeyOf(domain, code);
    if (codeRange) emit('pipe', pipeKey, codeRange, 'declaration');
    const input = name(3);
    const inputRange = at(3);
    if (name(2) === 'inputs' && input !== undefined && length >= 5 && inputRange) emit('input', `${pipeKey}#${input}`, inputRange, 'declaration');
  }
}

type Emit = (kind: OccurrenceKind, key: string, range: Range, role: Occurrence['role']) => void;

/** The domain part of `domain.Code` (not of package-qualified references: another package's). */
function refDomain(node: LString, ref: ParsedRef, emit: Emit): void {
  if (ref.domain === undefined || ref.prefix !== undefined) return;
  emit('domain', ref.domain, stringSliceRange(node, ref.refStart, ref.refStart + ref.domain.length), 'reference');
}

function collectModels(pipe: PipeDecl, emit: Emit): void {
  for (const field of pipe.spec?.fields ?? []) {
    if (field.name !== 'model' && field.name !== 'model_to_structure') continue;
    let node: LValue | undefined = getEntry(pipe.table, field.name)?.value;
    if (node?.type === 'table') node = getEntry(node, 'model')?.value;
    if (node?.type === 'string' && node.value.trim() !== '') emit('model', node.value.trim(), contentRange(node, true), 'reference');
  }
}

function collectTemplateReads(pipe: PipeDecl, emit: Emit): void {
  const { sites, constructReads } = templateSites(pipe);
  for (const site of sites) {
    const analysis = analyzeTemplate(site.node.value, site);
    for (const read of analysis.reads) {
      const root = read.path[0]!;
      if (root.startsWith('_') || RUNTIME_TEMPLATE_NAMES.includes(root)) continue;
      // The read starts at its sigil (shorthands) or at the root name (Jinja).
      let start = read.start + (read.sigil?.length ?? 0);
      if (site.node.value.slice(start, start + root.length) !== root) {
        const found = site.node.value.indexOf(root, read.start);
        if (found < 0 || found >= read.end) continue;
        start = found;
      }
      emit('template-variable', inputKeyOf(pipe, root), stringSliceRange(site.node, start, start + root.length), 'reference');
    }
  }
  for (const read of constructReads) emitPathRoot(read.node, (root) => inputKeyOf(pipe, root), 'input', emit);
}

/** Controller wiring: `input_list_name`, step `from` / `batch_over` roots, step `result`s. */
function collectFlow(pipe: PipeDecl, emit: Emit): void {
  const listName = getEntry(pipe.table, 'input_list_name')?.value;
  if (listName?.type === 'string' && /^[A-Za-z_]\w*$/.test(listName.value)) emit('input', inputKeyOf(pipe, listName.value), contentRange(listName), 'reference');
  // Branches of a PipeParallel run side by side: none reads another's result.
  const sequential = getEntry(pipe.table, 'steps')?.value?.type === 'array';
  const stored = new Set<string>();
  for (const step of pipe.steps) {
    const keyOf = (root: string): string => (sequential && stored.has(root) ? resultKeyOf(pipe, root) : inputKeyOf(pipe, root));
    const kindOf = (root: string): OccurrenceKind => (sequential && stored.has(root) ? 'result' : 'input');
    for (const name of ['from', 'batch_over'] as const) {
      const node = getEntry(step.node, name)?.value;
      if (node?.type === 'string') emitPathRoot(node, keyOf, kindOf, emit);
    }
    const result = getEntry(step.node, 'result')?.value;
    if (result?.type === 'string' && /^[A-Za-z_]\w*$/.test(result.value)) {
      emit('result', resultKeyOf(pipe, result.value), contentRange(result), 'declaration');
      stored.add(result.value);
    }
  }
}

/** The root segment of a dotted path string (`invoice.total` → `invoice`). */
function emitPathRoot(node: LString, keyOf: (root: string) => string, kind: OccurrenceKind | ((root: string) => OccurrenceKind), emit: Emit): void {
  const match = /^[A-Za-z_]\w*/.exec(node.value);
  if (!match) return;
  const root = match[0];
  emit(typeof kind === 'string' ? kind : kind(root), keyOf(root), stringSliceRange(node, 0, root.length), 'reference');
}

/** The content of a string (inside the quotes), optionally without surrounding blanks. */
function contentRange(node: LString, trim = false): Range {
  if (!trim) return stringSliceRange(node, 0, node.value.length);
  const lead = node.value.length - node.value.trimStart().length;
  const trail = node.value.trimEnd().length;
  return stringSliceRange(node, lead, Math.max(lead, trail));
}

/** A key's range without its quotes (`"name"` → `name`). */
function unquoted(text: string, range: Range): Range {
  const first = text[range.start];
  if (range.end - range.start >= 2 && (first === '"' || first === "'") && text[range.end - 1] === first) return { start: range.start + 1, end: range.end - 1 };
  return range;
}
