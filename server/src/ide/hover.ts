// Hover: what the thing under the cursor is. Concepts (description, refinement chain, fields,
// where defined), pipes (type, signature, description, where defined), keys and pipe types (the
// language description's documentation), model references (the deck's entry), template variables
// (the concept read), step results (the concept stored), and the registry's explanation of each
// finding under the cursor.

import { nodeAtOffset } from '../syntax/lookup.js';
import type { LString, Range } from '../syntax/types.js';
import { stringSliceRange } from '../language/buildBundle.js';
import { lookupConcept } from '../language/concepts.js';
import { conceptMarkdown, fieldMarkdown, pipeMarkdown, pipeTypeMarkdown, registryMarkdown, retiredPipeTypeMarkdown } from './describe.js';
import { fieldTypeLabel, typedLabel, walkFields } from '../language/fieldPaths.js';
import type { Bundle, PipeDecl } from '../language/model.js';
import { findChoice, referenceKind, type ModelCatalog } from '../language/modelCatalog.js';
import { parseConceptRef, parseIoRef, parsePipeRef, type IoRef, type ParsedRef } from '../language/references.js';
import { SPECIAL_OUTCOMES } from '../language/spec/lexical.js';
import { getPipeType } from '../language/spec/pipeTypes.js';
import { specAt, stringSpecOf, type PathSegment, type SpecAt } from '../language/specPaths.js';
import { inputTypes, stepResults } from '../language/stepTypes.js';
import { readAt } from './templateReads.js';
import { resolvePipe, type MethodTree } from '../language/tree.js';

export interface HoverRequest {
  tree: MethodTree;
  bundle: Bundle;
  offset: number;
  models?: ModelCatalog;
  /** The findings of the bundle, when they are of its current text. */
  findings?: ReadonlyArray<{ code: string; range: Range }>;
}

export interface HoverInfo {
  markdown: string;
  range: Range;
}

type Found = HoverInfo | undefined;

function pipeByCode(bundle: Bundle, code: PathSegment | undefined): PipeDecl | undefined {
  return bundle.pipes.find((p) => p.code === code);
}

/** A declared name of the bundle: a pipe or concept section, an input, a structure field. */
function namedHover(req: HoverRequest, at: SpecAt, path: readonly PathSegment[], range: Range): Found {
  const { tree, bundle } = req;
  const domain = bundle.domain?.value;
  if (at.named === 'pipe' && at.pipe) return { markdown: pipeMarkdown(tree, at.pipe, domain), range };
  if (at.named === 'concept' && at.concept) {
    return { markdown: conceptMarkdown(tree, { kind: 'declared', key: `${domain ?? ''}.${at.concept.code}`, decl: at.concept }, domain), range };
  }
  if (at.named === 'input' && at.pipe) {
    const name = String(path[path.length - 1]);
    const typed = inputTypes(tree, at.pipe).get(name);
    const raw = at.pipe.inputs.find((i) => i.name === name)?.ref?.raw;
    const head = `**${name}** — input of \`${at.pipe.code}\`: \`${typed ? typedLabel(typed, domain) : (raw ?? '?')}\``;
    return { markdown: typed ? `${head}\n\n---\n\n${conceptMarkdown(tree, typed.concept, domain)}` : head, range };
  }
  if (at.named === 'structure-field' && at.concept) {
    const field = at.concept.structure?.find((f) => f.name === path[path.length - 1]);
    if (!field) return undefined;
    const concept = lookupConcept(tree, bundle, { code: at.concept.code });
    const described = concept ? walkFields(tree, concept, [field.name]).field : undefined;
    const type = described ? fieldTypeLabel(described, domain) : (field.type?.value ?? 'text');
    return { markdown: `**${field.name}**: ${type}${field.required ? ' (required)' : ''} — field of \`${at.concept.code}\`${field.description ? `\n\n${field.description}` : ''}`, range };
  }
  return undefined;
}

function keyHover(req: HoverRequest, path: readonly PathSegment[], range: Range): Found {
  const at = specAt(req.bundle, path);
  const named = namedHover(req, at, path, range);
  if (named || at.named) return named;
  if (!at.field) return undefined;
  const owner = at.pipe && path.length === 3 ? (at.pipe.type?.value ?? 'pipe') : at.owner?.name;
  return { markdown: fieldMarkdown(at.field, owner), range };
}

function conceptRefHover(req: HoverRequest, node: LString, io: boolean): Found {
  const parsed = io ? parseIoRef(node.value) : parseConceptRef(node.value);
  if (!parsed.ok) return undefined;
  const ref: ParsedRef & Partial<IoRef> = parsed.value;
  const range = stringSliceRange(node, ref.refStart, ref.refEnd);
  if (ref.prefix !== undefined) {
    const dep = req.tree.manifest?.dependencies.find((d) => d.alias === ref.prefix);
    return { markdown: `**${ref.code}** — concept of the dependency \`${ref.prefix}\`${dep?.address ? ` (${dep.address.value})` : ''}`, range };
  }
  const concept = lookupConcept(req.tree, req.bundle, ref);
  if (!concept) return undefined;
  let markdown = conceptMarkdown(req.tree, concept, req.bundle.domain?.value);
  const m = ref.multiplicity;
  const notes = [m?.kind === 'list' ? 'a list' : m?.kind === 'fixed' ? `exactly ${m.count}` : '', ref.marker === '?' ? 'optional' : ref.marker === '!' ? 'forced' : ''].filter((x) => x !== '');
  if (notes.length > 0) markdown = `_${notes.join(', ')}_\n\n${markdown}`;
  return { markdown, range };
}

function pipeRefHover(req: HoverRequest, node: LString, ownOnly: boolean): Found {
  const range = stringSliceRange(node, 0, node.value.length);
  if (SPECIAL_OUTCOMES.includes(node.value) && !ownOnly) {
    return { markdown: node.value === 'fail' ? '**fail** — the run stops with an error when this outcome is chosen.' : '**continue** — the condition produces no output (its output must be optional).', range };
  }
  const parsed = parsePipeRef(node.value);
  if (!parsed.ok) return undefined;
  // `main_pipe` names a pipe of its own bundle.
  const own = ownOnly ? pipeByCode(req.bundle, node.value) : undefined;
  const resolved = ownOnly ? (own ? { kind: 'pipe' as const, decl: own } : { kind: 'unresolved' as const }) : resolvePipe(req.tree, req.bundle, parsed.value);
  if (resolved.kind === 'external') return { markdown: `**${parsed.value.code}** — pipe of the dependency \`${resolved.prefix}\``, range };
  if (resolved.kind !== 'pipe') return undefined;
  return { markdown: pipeMarkdown(req.tree, resolved.decl, req.bundle.domain?.value), range };
}

function modelHover(req: HoverRequest, node: LString, at: SpecAt): Found {
  const range = stringSliceRange(node, 0, node.value.length);
  const reference = node.value.trim();
  if (reference === '') return undefined;
  const choice = req.models ? findChoice(req.models, reference) : undefined;
  const category = at.field?.name === 'model_to_structure' ? 'llm' : at.pipe?.spec?.modelCategory;
  if (choice) {
    return { markdown: `**${choice.reference}** — ${choice.category} ${choice.kind === 'handle' ? 'model' : choice.kind}${choice.detail ? `\n\n${choice.detail}` : ''}\n\nFrom ${req.models!.source}.`, range };
  }
  const kind = referenceKind(reference);
  const where = req.models ? `not listed by ${req.models.source}` : 'no model deck at hand';
  return { markdown: `**${reference}** — ${kind === 'handle' ? 'model handle' : kind}${category ? ` (${category})` : ''}\n\n_${where}; the runtime resolves it._`, range };
}

function readHover(req: HoverRequest, pipe: PipeDecl, offset: number): Found {
  const read = readAt(pipe, offset);
  if (!read) return undefined;
  const domain = req.bundle.domain?.value;
  const root = read.path[0]!;
  const typed = inputTypes(req.tree, pipe).get(root);
  if (!read.input) return { markdown: `**${read.path.join('.')}** — \`${root}\` is not an input of \`${pipe.code}\``, range: read.range };
  const head = `**${root}** — input of \`${pipe.code}\`: \`${typed ? typedLabel(typed, domain) : (read.input.ref?.raw ?? '?')}\``;
  if (read.path.length === 1 || !typed) return { markdown: typed ? `${head}\n\n---\n\n${conceptMarkdown(req.tree, typed.concept, domain)}` : head, range: read.range };
  const walked = walkFields(req.tree, typed.concept, read.path.slice(1));
  if (walked.failedAt !== undefined || !walked.field) {
    const at = walked.failedAt !== undefined ? read.path[walked.failedAt + 1] : undefined;
    return { markdown: `${head}\n\n_No field \`${at ?? '?'}\` to read there._`, range: read.range };
  }
  const f = walked.field;
  return { markdown: `**${read.path.join('.')}**: ${fieldTypeLabel(f, domain)}${f.required ? ' (required)' : ''}${f.description ? `\n\n${f.description}` : ''}\n\n${head}`, range: read.range };
}

function stepHover(req: HoverRequest, pipe: PipeDecl, stepIndex: number, node: LString, what: 'result' | 'from'): Found {
  const step = pipe.steps.find((s) => s.index === stepIndex && (what === 'result' ? s.result?.range.start === node.range.start : s.from?.range.start === node.range.start));
  const value = step ? stepResults(req.tree, pipe).get(step) : undefined;
  if (!value) return undefined;
  const label = typedLabel(value, req.bundle.domain?.value);
  const head = what === 'result' ? `**${node.value}** — stores \`${label}\`` : `**${node.value}** — binds \`${label}\``;
  return { markdown: `${head}\n\n---\n\n${conceptMarkdown(req.tree, value.concept, req.bundle.domain?.value)}`, range: stringSliceRange(node, 0, node.value.length) };
}

function valueHover(req: HoverRequest, path: readonly PathSegment[], node: LString): Found {
  const at = specAt(req.bundle, path);
  if (at.pipe && path[2] === 'construct') return readHover(req, at.pipe, req.offset);
  const spec = stringSpecOf(at.spec);
  if (!spec) return undefined;
  const range = stringSliceRange(node, 0, node.value.length);
  switch (spec.role) {
    case 'pipe-type': {
      const type = getPipeType(node.value);
      const markdown = type ? pipeTypeMarkdown(type) : retiredPipeTypeMarkdown(node.value);
      return markdown ? { markdown, range } : undefined;
    }
    case 'io-ref':
    case 'concept-ref':
      return conceptRefHover(req, node, spec.role === 'io-ref');
    case 'pipe-ref':
      return pipeRefHover(req, node, false);
    case 'pipe-code':
      return pipeRefHover(req, node, true);
    case 'model-ref':
      return modelHover(req, node, at);
    case 'template':
    case 'expression':
      return at.pipe ? readHover(req, at.pipe, req.offset) : undefined;
    case 'stored-name':
    case 'path':
      if (at.pipe && typeof path[3] === 'number' && (at.field?.name === 'result' || at.field?.name === 'from')) return stepHover(req, at.pipe, path[3], node, at.field.name);
      return undefined;
    default:
      return spec.enum && at.field ? { markdown: fieldMarkdown(at.field), range } : undefined;
  }
}

function contains(r: Range, offset: number): boolean {
  return r.start <= offset && offset <= r.end;
}

export function hoverAt(req: HoverRequest): HoverInfo | undefined {
  const { bundle, offset } = req;
  const n = nodeAtOffset(bundle.doc, offset);
  let found: Found;
  if (n.key) {
    found = keyHover(req, n.path, n.key.segment.range);
  } else if (n.value?.type === 'string' && offset >= n.value.contentStart && offset <= n.value.contentEnd) {
    found = valueHover(req, n.path, n.value);
  }
  // What the checks found here: the registry's title, meaning and advice.
  const codes = new Set<string>();
  let codeRange: Range | undefined;
  for (const f of req.findings ?? []) {
    if (!contains(f.range, offset) || codes.has(f.code)) continue;
    codes.add(f.code);
    codeRange ??= f.range;
  }
  const explanations = [...codes].map(registryMarkdown).filter((m): m is string => m !== undefined);
  if (!found && explanations.length === 0) return undefined;
  const parts = found ? [found.markdown, ...explanations] : explanations;
  return { markdown: parts.join('\n\n---\n\n'), range: found?.range ?? codeRange! };
}
