// PipeLLM and PipeStructure: text completions and structured generation through the provider.
// A text-based output asks for text; a structured one for an object matching the JSON Schema of
// its concept (a list output: `{ items: [...] }` of them), validated on return.

import { conceptJsonSchema, conceptListJsonSchema, nativeBase } from '../../../language/jsonSchema.js';
import type { PipeDecl } from '../../../language/model.js';
import type { InsertedImage } from '../../../language/templates/render.js';
import { Refusal } from '../../refusal.js';
import type { DeckModel, ModelSettings, ObjectRequest, Provider } from '../../providers/types.js';
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

/** Generates the output items of a model call, text or structured. */
async function generate(g: Generation): Promise<unknown[]> {
  const { ctx, pipe, inv, target } = g;
  const isList = target.multiplicity.kind !== 'single';
  const base = { model: g.model, seed: callSeed(ctx, inv), signal: ctx.signal, settings: g.settings, attachments: attachmentsOf(g.images) };
  const system = g.system !== undefined ? { system: g.system } : {};
  if (target.info.shape !== 'structured' && !isList) {
    const text = await g.provider.generateText({ ...base, ...system, prompt: g.prompt });
    return [{ text }];
  }
  let prompt = g.prompt + listInstruction(target);
  if (stringSetting(pipe, 'structuring_method') === 'preliminary_text' && target.info.shape === 'structured') {
    // Two calls: free text first, then that text structured (model_to_structure when given).
    const text = await g.provider.generateText({ ...base, ...system, prompt });
    const structuring = setting(pipe, 'model_to_structure') !== undefined ? modelFor(ctx, pipe, 'llm', 'model_to_structure') : { model: g.model, provider: g.provider, settings: g.settings };
    g = { ...g, ...structuring };
    prompt = `Structure the following text.${listInstruction(target)}\n\n${text}`;
  }
  const count = target.multiplicity.kind === 'fixed' ? target.multiplicity.count : undefined;
  const concept = isList ? { catalog: ctx.catalog, info: target.info, list: count !== undefined ? { count } : {} } : { catalog: ctx.catalog, info: target.info };
  const request: ObjectRequest = {
    ...base,
    ...system,
    model: g.model,
    settings: g.settings,
    prompt,
    // Built when a provider reads it: the mock mints from the concept and never does.
    get schema() {
      return isList ? conceptListJsonSchema(ctx.catalog, target.info, count, { forGeneration: true }) : conceptJsonSchema(ctx.catalog, target.info, { forGeneration: true });
    },
    schemaName: target.info.code,
    concept,
  };
  const answer = await g.provider.generateObject(request);
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
