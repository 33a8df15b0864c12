// Sample bundles made from the language description: every pipe type as its completion snippet
// inserts it, with its placeholders filled as a user would fill them so that the bundle is valid
// (the pipes the controllers name declared, fitted to what each controller hands them; the concepts
// the snippets name declared, with a structure of every field type and the fields the expressions
// read). The start-up warm-ups run them through the keystroke path (lsp/warmUp.ts) and /validate
// (runner/warmUp.ts): real code on realistic bundles, which only a valid bundle takes to the end
// (the dry run runs every pipe of a valid bundle only).
//
// Nothing is added to a snippet beyond filling its placeholders, except what the spec asks of the
// names they leave to the user: a PipeBatch's branch declares an input named `input_item_name`
// (§5.13), and the field a PipeCondition's expression reads takes the outcomes as choices, so that
// the minted value the dry run feeds it picks an outcome pipe rather than the `fail` default (the
// dry run counts a condition ending in `fail` as skipped, not run).

import { parseToml } from '../syntax/document.js';
import { getEntry } from '../syntax/lookup.js';
import type { Range } from '../syntax/types.js';
import { buildBundle } from './buildBundle.js';
import { expandSnippet, type SnippetPlaceholder } from './snippetText.js';
import type { InputDecl, PipeDecl, PipeRefContext } from './model.js';
import { parseIoRef } from './references.js';
import { FIELD_TYPES } from './spec/bundle.js';
import { toSnakeCase } from './spec/lexical.js';
import { NATIVE_CONCEPTS } from './spec/natives.js';
import { PIPE_TYPES, type PipeTypeSpec } from './spec/pipeTypes.js';
import type { ValueSpec } from './spec/values.js';

/** Model references to choose from, by model category (the `model` field of pipes). */
export type ModelChoices = ReadonlyMap<string, readonly string[]>;

export interface SampleBundleOptions {
  /** The bundle's domain (a domain code). */
  domain: string;
  /** Every pipe type this many times over, under other codes (default 1). */
  copies?: number;
  /** Makes the text distinct (descriptions, template openings, models): two variants never share a template. */
  variant?: number;
  /** Declares `main_pipe` (the first controller of the first copy). */
  mainPipe?: boolean;
  /** Declares the bundle's `system_prompt`. */
  systemPrompt?: boolean;
  /** Models named by the pipes of a model category, chosen by variant and copy; none named when absent. */
  models?: ModelChoices;
  /** The pipe types present (default every one); a controller brings the pipes it names. */
  types?: readonly PipeTypeSpec[];
}

/** A snippet read once: its text with the defaults, where its placeholders lie, its pipe's model. */
interface ReadSnippet {
  type: PipeTypeSpec;
  text: string;
  placeholders: SnippetPlaceholder[];
  pipe: PipeDecl;
}

const HEADER = '[pipe.sample]\n';

const readSnippets = new Map<PipeTypeSpec, ReadSnippet>();

function readSnippet(type: PipeTypeSpec): ReadSnippet {
  let read = readSnippets.get(type);
  if (read === undefined) {
    const { text, placeholders } = expandSnippet(type.snippet);
    const pipe = buildBundle('sample.mthds', parseToml(HEADER + text)).pipes[0]!;
    read = { type, text, placeholders, pipe };
    readSnippets.set(type, read);
  }
  return read;
}

/** The placeholder whose value is the node at `range` of the parsed text (ranges count the header). */
function slotAt(read: ReadSnippet, range: Range): number {
  const start = range.start - HEADER.length;
  const end = range.end - HEADER.length;
  const slot = read.placeholders.find((p) => p.start >= start && p.end <= end && p.end > p.start);
  // The snippets are the description's: a name they fix cannot be made to resolve within a copy.
  if (slot === undefined) throw new Error(`The ${read.type.name} snippet fixes "${read.text.slice(start, end)}": no placeholder to fill`);
  return slot.index;
}

const NATIVE_CODES = new Set(NATIVE_CONCEPTS.map((n) => n.code));

/** The concept code an input or output names, when it is not a native (none of the snippets qualifies one). */
function ownConcept(input: InputDecl['ref']): string | undefined {
  const io = input?.io;
  return io !== undefined && io.domain === undefined && io.prefix === undefined && !NATIVE_CODES.has(io.code) ? io.code : undefined;
}

/** The concept of one item of a list reference (`Text[]` → `Text`). */
function itemOf(raw: string): string {
  const io = parseIoRef(raw);
  return io.ok && io.value.multiplicityStart !== undefined ? raw.slice(0, io.value.multiplicityStart) : raw;
}

/** The string value of a key of the pipe's table, as the snippet's defaults give it. */
function stringKey(pipe: PipeDecl, key: string): string | undefined {
  const value = getEntry(pipe.table, key)?.value;
  return value?.type === 'string' ? value.value : undefined;
}

/**
 * What a controller hands a pipe it names, and what it wants back (language reference §5.9-5.13):
 * a step, an outcome or a branch gets the controller's inputs; the last step and an outcome make its
 * output, a parallel branch its own (the controller's output gathers them); a batch's branch gets
 * one item of the list under `input_item_name` and makes one item of the output.
 */
interface Contract {
  input: { name: string; concept: string };
  output?: string;
}

function contractOf(context: PipeRefContext, pipe: PipeDecl, inputs: ReadonlyArray<{ name: string; concept: string }>, output: string): Contract {
  if (context === 'branch_pipe_code') {
    const list = stringKey(pipe, 'input_list_name');
    const listInput = inputs.find((i) => i.name === list) ?? inputs[0]!;
    return { input: { name: stringKey(pipe, 'input_item_name')!, concept: itemOf(listInput.concept) }, output: itemOf(output) };
  }
  return { input: inputs[0]!, output: context === 'branch' ? undefined : output };
}

/** The expressions of a pipe (the fields its type's description says hold one), as its snippet's defaults give them. */
function expressionsOf(read: ReadSnippet): string[] {
  return read.type.fields.filter((f) => f.value.kind === 'string' && f.value.role === 'expression').flatMap((f) => stringKey(read.pipe, f.name) ?? []);
}

/** The outcome strings of a condition (none for other pipes). */
function outcomesOf(pipe: PipeDecl): string[] {
  const outcomes = getEntry(pipe.table, 'outcomes')?.value;
  return outcomes?.type === 'table' ? outcomes.entries.map((e) => e.key) : [];
}

/** Template fields of each pipe type (not expressions: an opening would change what they compute). */
function holdsTemplate(value: ValueSpec): boolean {
  return value.kind === 'oneOf' ? value.options.some(holdsTemplate) : value.kind === 'string' && value.role === 'template';
}

/**
 * Makes a pipe's text distinct for `variant`: its description, each template's opening (plain text
 * on even variants, a Jinja statement on odd ones, so that both the shorthand renderer and the
 * Jinja compiler meet new templates), its model.
 */
function distinct(text: string, type: PipeTypeSpec, variant: number, model: string | undefined): string {
  let out = text.replace(/^description = "/m, `description = "Variant ${variant}: `);
  if (model !== undefined && type.fields.some((f) => f.name === 'model')) out = out.replace(/^output = .*$/m, (m) => `${m}\nmodel = "${model}"`);
  const opening = variant % 2 === 0 ? `Variant ${variant}:` : `{% if true %}Variant ${variant}{% endif %}:`;
  for (const field of type.fields.filter((f) => holdsTemplate(f.value))) {
    out = out.replace(new RegExp(`^${field.name} = """\n`, 'm'), (m) => `${m}${opening}\n`).replace(new RegExp(`^${field.name} = "(?!"")`, 'm'), (m) => `${m}${opening} `);
  }
  return out;
}

/** What the compound field types need beside their type, so that every type is present. */
function fieldExtras(type: (typeof FIELD_TYPES)[number]): string {
  if (type === 'list') return ', item_type = "text"';
  if (type === 'dict') return ', key_type = "text", value_type = "integer"';
  if (type === 'concept') return `, concept_ref = "${NATIVE_CONCEPTS.find((n) => !n.structureless)!.code}"`;
  return '';
}

/**
 * A concept with a field of every field type, and a choice field with a default; with the fields
 * the pipes' expressions read of it (`read`: name to the values a condition's outcomes expect).
 */
function conceptText(code: string, read: ReadonlyMap<string, readonly string[]>, variant: number): string {
  const lines = [`[concept.${code}]`, `description = "Variant ${variant}: a ${code}"`, '', `[concept.${code}.structure]`];
  for (const [field, values] of read) {
    // A condition's expression reads it: its value is one of the outcomes (minted values take the
    // first choice), so that the dry run goes down an outcome pipe rather than the default.
    const choices = values.length > 0 ? `, choices = [${values.map((v) => `"${v}"`).join(', ')}]` : ', type = "text"';
    lines.push(`${field} = { description = "The ${field}"${choices}, required = true }`);
  }
  for (const t of FIELD_TYPES) lines.push(`${t}_field = { type = "${t}", description = "A ${t}"${fieldExtras(t)} }`);
  lines.push('choice_field = { description = "A choice", choices = ["a", "b", "c"], default_value = "a" }');
  return `${lines.join('\n')}\n`;
}

/** The pipe type the pipes a controller names are made of: the first operator, as a user's first pipe. */
function childType(): PipeTypeSpec {
  return PIPE_TYPES.find((t) => t.kind === 'operator')!;
}

/** A pipe the controllers name: the first operator's snippet, its input and output filled to fit `contract`. */
function childText(contract: Contract): string {
  const read = readSnippet(childType());
  const input = read.pipe.inputs[0]!;
  const fills = new Map<number, string>([
    [slotAt(read, input.nameRange), contract.input.name],
    [slotAt(read, input.ref!.node.range), contract.input.concept],
  ]);
  if (contract.output !== undefined) fills.set(slotAt(read, read.pipe.output!.node.range), contract.output);
  return expandSnippet(childType().snippet, (i) => fills.get(i)).text;
}

/** One sample bundle, valid: every pipe type (or `types`) `copies` times, with what they name. */
export function sampleBundle(options: SampleBundleOptions): string {
  const { domain, copies = 1, variant = 0 } = options;
  const types = options.types ?? PIPE_TYPES;
  const lines = [`domain = "${domain}"`, `description = "Variant ${variant}: sample bundle ${domain}"`];
  if (options.systemPrompt) lines.push(`system_prompt = "Variant ${variant}: be precise."`);
  const mainType = types.find((t) => t.kind === 'controller') ?? types[0];
  if (options.mainPipe && mainType !== undefined) lines.push(`main_pipe = "${toSnakeCase(mainType.name)}_0"`);
  const parts = [`${lines.join('\n')}\n`];
  const modelOf = (type: PipeTypeSpec, copy: number): string | undefined => {
    const choices = type.modelCategory ? options.models?.get(type.modelCategory) : undefined;
    return choices?.length ? choices[(variant + copy) % choices.length] : undefined;
  };
  for (let copy = 0; copy < copies; copy++) {
    const concepts = new Map<string, Map<string, readonly string[]>>();
    const pipes: string[] = [];
    const codes = new Set<string>();
    for (const type of types) {
      const read = readSnippet(type);
      const code = `${toSnakeCase(type.name)}_${copy}`;
      const fills = new Map<number, string>();
      // The concepts the pipe names, declared per copy; with the fields its expressions read of them.
      const inputs = read.pipe.inputs.map((input) => {
        const own = ownConcept(input.ref);
        if (own === undefined) return { name: input.name, concept: input.ref?.raw ?? '' };
        const renamed = `${own}${copy}`;
        fills.set(slotAt(read, input.ref!.node.range), renamed);
        const fields = concepts.get(renamed) ?? new Map<string, readonly string[]>();
        for (const expression of expressionsOf(read)) {
          for (const m of expression.matchAll(new RegExp(`\\b${input.name}\\.([a-z][a-z0-9_]*)`, 'g'))) fields.set(m[1]!, outcomesOf(read.pipe));
        }
        concepts.set(renamed, fields);
        return { name: input.name, concept: input.ref!.raw.replace(own, renamed) };
      });
      const outputOwn = ownConcept(read.pipe.output);
      let output = read.pipe.output?.raw ?? '';
      if (outputOwn !== undefined) {
        const renamed = `${outputOwn}${copy}`;
        fills.set(slotAt(read, read.pipe.output!.node.range), renamed);
        if (!concepts.has(renamed)) concepts.set(renamed, new Map());
        output = output.replace(outputOwn, renamed);
      }
      // The pipes the controller names: made for it, named as the snippet names them (per copy).
      const children: string[] = [];
      for (const ref of read.pipe.pipeRefs) {
        if (ref.special) continue;
        let child = `${ref.raw}_${copy}`;
        if (codes.has(child)) child = `${code}_${ref.raw}`;
        codes.add(child);
        fills.set(slotAt(read, ref.node.range), child);
        const text = childText(contractOf(ref.context, read.pipe, inputs, output));
        children.push(`[pipe.${child}]\n${distinct(text, childType(), variant, modelOf(childType(), copy))}\n`);
      }
      const text = expandSnippet(type.snippet, (i) => fills.get(i)).text;
      pipes.push(`[pipe.${code}]\n${distinct(text, type, variant, modelOf(type, copy))}\n`, ...children);
    }
    for (const [code, read] of concepts) parts.push(conceptText(code, read, variant));
    parts.push(...pipes);
  }
  return parts.join('\n');
}
