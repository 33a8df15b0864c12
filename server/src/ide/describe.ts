// Markdown descriptions of the things a bundle names: concepts, pipes, pipe types, fields of the
// language description and registry codes. Hover shows them whole; completion items carry them as
// documentation. Everything comes from the model, the spec and the registry.

import { hostStructureOf } from '../language/hostStructures.js';
import { getEntry as registryEntry } from '../registry/lookup.js';
import { lineOfOffset } from '../syntax/positions.js';
import { displayConcept, refinementChain, type Concept } from '../language/concepts.js';
import { describedFields, fieldTypeLabel, typedLabel } from '../language/fieldPaths.js';
import type { Bundle, ConceptDecl, PipeDecl, StructureField } from '../language/model.js';
import type { NativeConcept } from '../language/spec/natives.js';
import { RETIRED_PIPE_TYPES, type PipeTypeSpec } from '../language/spec/pipeTypes.js';
import { describeSpec, type FieldSpec } from '../language/spec/values.js';
import { inputTypes, outputType } from '../language/stepTypes.js';
import type { MethodTree } from '../language/tree.js';
import { fileInTree, fileName } from '../language/treePaths.js';
import { ConceptCatalog } from '../language/jsonSchema.js';
import { pipeIoMarkdown } from '../language/pipeIo.js';
import { ObjectCache } from '../util/objectCache.js';

/** Escapes text for a markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** `concepts.mthds:12`, relative to the tree's root. */
export function whereDefined(tree: MethodTree, bundle: Bundle, offset: number): string {
  return `${fileInTree(tree, bundle.file)}:${lineOfOffset(bundle.doc.lineStarts, offset) + 1}`;
}

function declaredFieldType(f: StructureField): string {
  if (f.choices) return f.choices.map((c) => JSON.stringify(c)).join(' \\| ');
  const type = f.type?.value ?? 'text';
  if (type === 'concept') return f.conceptRef?.raw ?? 'concept';
  if (type === 'list') return f.itemConceptRef ? `${f.itemConceptRef.raw}[]` : `${f.itemType?.value ?? ''}[]`;
  if (type === 'dict') return `dict[${f.keyType?.value ?? 'text'}, ${f.valueType?.value ?? 'Any'}]`;
  return type;
}

export function nativeMarkdown(native: NativeConcept): string {
  const parts = [`**${native.code}** — native concept`, native.description];
  if (native.refines !== undefined) parts.push(`Refines: \`${native.refines}\`; accepted wherever \`${native.refines}\` is.`);
  if (native.structureless) parts.push('_Structureless: no fields to walk._');
  else parts.push(fieldsTable(native.fields.map((f) => ({ name: f.name, type: f.concept ? (f.type === 'list' ? `${f.concept}[]` : f.concept) : f.type, required: f.required, description: f.description }))));
  return parts.join('\n\n');
}

function fieldsTable(rows: ReadonlyArray<{ name: string; type: string; required: boolean; description: string }>): string {
  if (rows.length === 0) return '_No fields._';
  const lines = ['| field | type | required | description |', '| --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| \`${r.name}\` | ${cell(r.type)} | ${r.required ? 'yes' : 'no'} | ${cell(r.description)} |`);
  return lines.join('\n');
}

/** A concept: description, refinement chain, fields (own or inherited), where it is defined. */
export function conceptMarkdown(tree: MethodTree, c: Concept, fromDomain?: string): string {
  if (c.kind === 'native') return nativeMarkdown(c.native);
  const decl: ConceptDecl = c.decl;
  const domain = decl.bundle.domain?.value;
  const parts = [`**${decl.code}** — concept${domain !== undefined ? ` of domain \`${domain}\`` : ''}`];
  if (decl.description) parts.push(decl.description.value);
  const chain = refinementChain(tree, c);
  if (chain.length > 1) parts.push(`Refines: ${chain.map((x) => `\`${displayConcept(x, fromDomain)}\``).join(' → ')}`);
  else if (decl.refines) parts.push(`Refines: \`${decl.refines.raw}\` (not found)`);
  if (decl.structure) {
    parts.push(fieldsTable(decl.structure.map((f) => ({ name: f.name, type: declaredFieldType(f), required: f.required, description: f.description ?? '' }))));
  } else if (decl.structureString) {
    parts.push(`Structure: ${decl.structureString.value}`);
  } else if (chain.length > 1) {
    const fields = describedFields(tree, c);
    if (fields && fields.length > 0) {
      const owner = fields[0]!.owner;
      parts.push(`Fields inherited from \`${displayConcept(owner, fromDomain)}\`:\n\n${fieldsTable(fields.map((f) => ({ name: f.name, type: fieldTypeLabel(f, fromDomain), required: f.required, description: f.description ?? '' })))}`);
    }
  } else {
    const host = hostStructureOf(tree.hostStructures, decl);
    if (host) parts.push(`Fields of the structure the host program binds to it (\`${fileName(tree.hostStructures!.file)}\`):\n\n${fieldsTable(host.fields.map((f) => ({ name: f.name, type: declaredFieldType(f), required: f.required, description: f.description ?? '' })))}`);
    else parts.push('_A text concept (no structure): its content is `{ text }`._');
  }
  parts.push(`Defined in \`${whereDefined(tree, decl.bundle, decl.codeRange.start)}\``);
  return parts.join('\n\n');
}

/** `name(input: Concept, ...) -> Output`: the signature line of a pipe. */
export function pipeSignature(tree: MethodTree, pipe: PipeDecl, fromDomain?: string): string {
  const typedInputs = inputTypes(tree, pipe);
  const inputs = pipe.inputs.map((i) => {
    const t = typedInputs.get(i.name);
    return `${i.name}: ${t ? typedLabel(t, fromDomain) : (i.ref?.raw ?? '?')}`;
  });
  const out = outputType(tree, pipe);
  const output = out ? typedLabel(out, fromDomain) : (pipe.output?.raw ?? '?');
  return `${pipe.code}(${inputs.join(', ')}) -> ${output}`;
}

const rawSignatures = new ObjectCache<PipeDecl, string>('rawSignatures');

/**
 * The signature as written (`name(input: Ref, ...) -> Ref`), cached per declaration: the one line
 * of each of thousands of completion items, where resolving every reference would cost too much.
 */
export function writtenSignature(pipe: PipeDecl): string {
  let sig = rawSignatures.get(pipe);
  if (sig === undefined) {
    sig = `${pipe.code}(${pipe.inputs.map((i) => `${i.name}: ${i.ref?.raw ?? '?'}`).join(', ')}) -> ${pipe.output?.raw ?? '?'}`;
    rawSignatures.set(pipe, sig);
  }
  return sig;
}

/** A pipe: type, signature, description, where it is defined. */
export function pipeMarkdown(tree: MethodTree, pipe: PipeDecl, fromDomain?: string): string {
  const domain = pipe.bundle.domain?.value;
  const kind = pipe.typeless ? 'signature (no implementation)' : (pipe.type?.value ?? 'pipe');
  const parts = [`**${pipe.code}** — ${kind}${domain !== undefined && domain !== fromDomain ? ` of domain \`${domain}\`` : ''}`];
  parts.push('```\n' + pipeSignature(tree, pipe, fromDomain) + '\n```');
  if (pipe.description) parts.push(pipe.description.value);
  // What it takes and gives, as the MTHDS standard describes it (the run prompt asks for the same).
  parts.push(pipeIoMarkdown(new ConceptCatalog(tree), pipe));
  parts.push(`Defined in \`${whereDefined(tree, pipe.bundle, pipe.codeRange.start)}\``);
  return parts.join('\n\n');
}

/** A pipe type of the description. */
export function pipeTypeMarkdown(spec: PipeTypeSpec): string {
  const required = spec.fields.filter((f) => f.required && !f.retired).map((f) => `\`${f.name}\``);
  const parts = [`**${spec.name}** — ${spec.kind}${spec.standard ? '' : ' (extension of the reference runtime, not standard)'}`, spec.doc];
  parts.push(`Required keys: ${required.join(', ')}`);
  if (spec.modelCategory) parts.push(`Models: \`${spec.modelCategory}\``);
  return parts.join('\n\n');
}

export function retiredPipeTypeMarkdown(name: string): string | undefined {
  const message = RETIRED_PIPE_TYPES[name];
  return message ? `**${name}** — retired pipe type\n\n${message}` : undefined;
}

/** A key of the description: its value kind, whether it is required, its documentation. */
export function fieldMarkdown(field: FieldSpec, owner?: string): string {
  const head = `**${field.name}**${owner ? ` — ${owner}` : ''}${field.required ? ' (required)' : ''}`;
  const parts = [head];
  if (field.retired) parts.push(`_Retired:_ ${field.retired.message}`);
  else parts.push(field.doc);
  if (!field.retired && field.value.kind !== 'any' && field.value.kind !== 'custom') parts.push(`Value: ${describeSpec(field.value)}`);
  return parts.join('\n\n');
}

/** A registry code: title, meaning and advice. */
export function registryMarkdown(code: string): string | undefined {
  const entry = registryEntry(code);
  if (!entry) return undefined;
  const parts = [`**${entry.code}** — ${entry.title}${entry.raisedAs === 'warning' ? ' (warning)' : ''}`, entry.explanation];
  const advice = entry.advice.client.map((s) => `- ${s.text}`);
  if (advice.length > 0) parts.push(`Advice:\n${advice.join('\n')}`);
  return parts.join('\n\n');
}
