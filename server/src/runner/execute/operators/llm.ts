// PipeLLM and PipeStructure: text completions and structured generation through the provider.
// A text-based output asks for text; a structured one for an object matching the JSON Schema of
// its concept (a list output: `{ items: [...] }` of them), validated on return.

import { conceptJsonSchema, conceptListJsonSchema, nativeBase, type ConceptCatalog, type JsonSchema } from '../../../language/jsonSchema.js';
import type { PipeDecl } from '../../../language/model.js';
import type { InsertedImage } from '../../../language/templates/render.js';
import { Refusal } from '../../refusal.js';
import type { Attachment, DeckModel, ModelSettings, ObjectRequest, Provider, TextRequest } from '../../providers/types.js';
import { textOf } from '../contents.js';
import { callSeed, failure, finishOutput, modelFor, setting, stringSetting, templateContext, type Invocation, type OutputTarget, type RunContext, type PipeRunner } from '../engine.js';
import type { Stuff, WorkingMemory } from '../memory.js';
import { attachmentsOf, render, styleOf } from './templates.js';

interface Generation {
  ctx: RunContext;
  pipe: PipeDecl;
  inv: Invocation;
  target: OutputTarget;
  model: DeckModel;
  provider: Provider;
  settings: ModelSettings;
  system?: string;
  prompt: string;
  images: InsertedImage[];
}

function listInstruction(target: OutputTarget): string {
  const m = target.multiplicity;
  if (m.kind === 'fixed') return `\n\nProduce exactly ${m.count} items.`;
  if (m.kind === 'list') return '\n\nProduce a list of items; choose how many.';
  return '';
}

/** A text call of the generation (built member by member: spreads with members after them are V8's slow path). */
function textRequest(g: Generation, seed: string, attachments: Attachment[], prompt: string): TextRequest {
  const request: TextRequest = { model: g.model, seed, signal: g.ctx.signal, settings: g.settings, attachments, prompt };
  if (g.system !== undefined) request.system = g.system;
  return request;
}

/** A structured call whose JSON Schema is built when a provider reads it: the mock mints from the concept and never does. */
class ConceptObjectRequest implements ObjectRequest {
  readonly model: DeckModel;
  readonly seed: string;
  readonly signal: AbortSignal;
  readonly settings: ModelSettings;
  readonly attachments: Attachment[];
  readonly prompt: string;
  readonly system?: string;
  readonly schemaName: string;
  readonly concept: NonNullable<ObjectRequest['concept']>;

  constructor(
    text: TextRequest,
    catalog: ConceptCatalog,
    target: OutputTarget,
    private readonly count: number | undefined,
  ) {
    this.model = text.model;
    this.seed = text.seed;
    this.signal = text.signal;
    this.settings = text.settings;
    this.attachments = text.attachments;
    this.prompt = text.prompt;
    if (text.system !== undefined) this.system = text.system;
    this.schemaName = target.info.code;
    this.concept = { catalog, info: target.info };
    if (target.multiplicity.kind !== 'single') this.concept.list = count !== undefined ? { count } : {};
  }

  get schema(): JsonSchema {
    const { catalog, info, list } = this.concept;
    return list ? conceptListJsonSchema(catalog, info, this.count, { forGeneration: true }) : conceptJsonSchema(catalog, info, { forGeneration: true });
  }
}

/** Generates the output items of a model call, text or structured. */
async function generate(g: Generation): Promise<unknown[]> {
  const { ctx, pipe, inv, target } = g;
  const isList = target.multiplicity.kind !== 'single';
  const seed = callSeed(ctx, inv);
  const attachments = attachmentsOf(g.images);
  if (target.info.shape !== 'structured' && !isList) {
    const text = await g.provider.generateText(textRequest(g, seed, attachments, g.prompt));
    return [{ text }];
  }
  let prompt = g.prompt + listInstruction(target);
  if (stringSetting(pipe, 'structuring_method') === 'preliminary_text' && target.info.shape === 'structured') {
    // Two calls: free text first, then that text structured (model_to_structure when given).
    const text = await g.provider.generateText(textRequest(g, seed, attachments, prompt));
    const structuring = setting(pipe, 'model_to_structure') !== undefined ? modelFor(ctx, pipe, 'llm', 'model_to_structure') : { model: g.model, provider: g.provider, settings: g.settings };
    g = { ...g, ...structuring };
    prompt = `Structure the following text.${listInstruction(target)}\n\n${text}`;
  }
  const count = target.multiplicity.kind === 'fixed' ? target.multiplicity.count : undefined;
  const answer = await g.provider.generateObject(new ConceptObjectRequest(textRequest(g, seed, attachments, prompt), ctx.catalog, target, count));
  if (!isList) return [answer];
  const items = answer && typeof answer === 'object' && Array.isArray((answer as Record<string, unknown>)['items']) ? ((answer as Record<string, unknown>)['items'] as unknown[]) : undefined;
  if (!items) throw new Refusal('mthdsls.provider.invalid_response', { provider: g.provider.name, finding: 'the answer holds no list of items' });
  return items;
}

export const runPipeLLM: PipeRunner = async (ctx: RunContext, pipe: PipeDecl, memory: WorkingMemory, inv: Invocation, target: OutputTarget): Promise<Stuff> => {
  if (nativeBase(target.info)?.code === 'Image') throw failure(pipe, 'a PipeLLM cannot produce images; use a PipeImgGen');
  const context = templateContext(ctx, pipe, memory, inv);
  const style = styleOf(setting(pipe, 'templating_style'), 'llm_prompt');
  let images: InsertedImage[] = [];
  let system: string | undefined;
  const systemSource = stringSetting(pipe, 'system_prompt') ?? pipe.bundle.systemPrompt?.value;
  if (systemSource !== undefined) {
    const r = render(pipe, 'system_prompt', systemSource, context, 'llm_prompt', { style, images });
    system = r.text;
    images = r.images;
  }
  const r = render(pipe, 'prompt', stringSetting(pipe, 'prompt') ?? '', context, 'llm_prompt', { style, images });
  const { model, provider, settings } = modelFor(ctx, pipe, 'llm');
  const g: Generation = { ctx, pipe, inv, target, model, provider, settings, prompt: r.text, images: r.images };
  if (system !== undefined) g.system = system;
  return finishOutput(ctx, pipe, target, await generate(g));
};

export const runPipeStructure: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const input = pipe.inputs[0];
  const stuff = input ? memory.get(input.name) : undefined;
  const text = stuff ? (stuff.list ? (stuff.content as unknown[]).map(textOf).join('\n\n') : textOf(stuff.content)) : undefined;
  if (text === undefined) throw failure(pipe, 'its input holds no text to structure');
  const { model, provider, settings } = modelFor(ctx, pipe, 'llm');
  const prompt = `Extract the structured data described by the schema from the following text.\n\n${text}`;
  return finishOutput(ctx, pipe, target, await generate({ ctx, pipe, inv, target, model, provider, settings, prompt, images: [] }));
};
