// PipeImgGen, PipeExtract and PipeSearch: images generated from a prompt, pages extracted from a
// document or image, a web search answered with its sources, each through the provider.

import { conceptJsonSchema, conceptListJsonSchema, nativeBase } from '../../../language/jsonSchema.js';
import { callSeed, failure, finishOutput, modelFor, setting, stringSetting, templateContext, type PipeRunner } from '../engine.js';
import { attachmentsOf, render, styleOf } from './templates.js';

const ASPECT_RATIOS: Readonly<Record<string, string>> = {
  square: '1:1',
  landscape_4_3: '4:3',
  landscape_3_2: '3:2',
  landscape_16_9: '16:9',
  landscape_21_9: '21:9',
  landscape_4_1: '4:1',
  landscape_8_1: '8:1',
  portrait_3_4: '3:4',
  portrait_2_3: '2:3',
  portrait_9_16: '9:16',
  portrait_9_21: '9:21',
  portrait_1_4: '1:4',
  portrait_1_8: '1:8',
};

function sizeOf(raw: unknown): string | undefined {
  if (typeof raw === 'string') return /^\d+x\d+$/.test(raw) ? raw : { '0.5k': '512x512', '1k': '1024x1024', '2k': '2048x2048', '4k': '4096x4096' }[raw];
  if (raw && typeof raw === 'object') {
    const t = raw as Record<string, unknown>;
    if (typeof t['width'] === 'number' && typeof t['height'] === 'number') return `${t['width']}x${t['height']}`;
  }
  return undefined;
}

export const runPipeImgGen: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const context = templateContext(ctx, pipe, memory, inv);
  const style = styleOf(setting(pipe, 'templating_style'), 'img_gen_prompt');
  const prompt = render(pipe, 'prompt', stringSetting(pipe, 'prompt') ?? '', context, 'img_gen_prompt', { style });
  const negativeSource = stringSetting(pipe, 'negative_prompt');
  const negative = negativeSource !== undefined ? render(pipe, 'negative_prompt', negativeSource, context, 'img_gen_prompt', { style, images: prompt.images }) : undefined;
  const { model, provider, settings } = modelFor(ctx, pipe, 'img_gen');
  const m = target.multiplicity;
  const request: Parameters<typeof provider.generateImages>[0] = {
    model,
    settings,
    seed: callSeed(ctx, inv),
    signal: ctx.signal,
    prompt: prompt.text,
    count: m.kind === 'fixed' ? m.count : 1,
    references: attachmentsOf(negative?.images ?? prompt.images),
  };
  if (negative) request.negativePrompt = negative.text;
  const ratio = ASPECT_RATIOS[stringSetting(pipe, 'aspect_ratio') ?? ''];
  if (ratio) request.aspectRatio = ratio;
  const size = sizeOf(setting(pipe, 'size'));
  if (size) request.size = size;
  const seed = setting(pipe, 'seed');
  if (typeof seed === 'number') request.imageSeed = seed;
  const format = stringSetting(pipe, 'output_format');
  if (format) request.outputFormat = format;
  return finishOutput(ctx, pipe, target, await provider.generateImages(request));
};

export const runPipeExtract: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const input = pipe.inputs[0];
  const stuff = input ? memory.get(input.name) : undefined;
  if (!stuff || stuff.list) throw failure(pipe, 'it extracts from exactly one Document or Image input');
  const base = nativeBase(stuff.concept)?.code;
  if (base !== 'Document' && base !== 'Image') throw failure(pipe, `its input ${input!.name} is neither a Document nor an Image`);
  const { model, provider, settings } = modelFor(ctx, pipe, 'extract');
  const pages = await provider.extractPages({
    model,
    settings,
    seed: callSeed(ctx, inv),
    signal: ctx.signal,
    inputName: input!.name,
    source: stuff.content as Record<string, unknown>,
    sourceKind: base === 'Image' ? 'image' : 'document',
    pageViews: setting(pipe, 'page_views') === true,
  });
  return finishOutput(ctx, pipe, target, pages);
};

export const runPipeSearch: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const context = templateContext(ctx, pipe, memory, inv);
  const query = render(pipe, 'prompt', stringSetting(pipe, 'prompt') ?? '', context, 'llm_prompt', { style: styleOf(undefined, 'basic') });
  const { model, provider, settings } = modelFor(ctx, pipe, 'search');
  const request: Parameters<typeof provider.search>[0] = { model, settings, seed: callSeed(ctx, inv), signal: ctx.signal, query: query.text };
  const maxResults = setting(pipe, 'max_results');
  if (typeof maxResults === 'number') request.maxResults = maxResults;
  const from = stringSetting(pipe, 'from_date');
  if (from) request.fromDate = from;
  const to = stringSetting(pipe, 'to_date');
  if (to) request.toDate = to;
  const include = setting(pipe, 'include_domains');
  if (Array.isArray(include)) request.includeDomains = include.filter((d): d is string => typeof d === 'string');
  const exclude = setting(pipe, 'exclude_domains');
  if (Array.isArray(exclude)) request.excludeDomains = exclude.filter((d): d is string => typeof d === 'string');
  const result = await provider.search(request);
  if (nativeBase(target.info)?.code === 'SearchResult' || target.info.shape === 'open') return finishOutput(ctx, pipe, target, [result]);
  // A structured output (Pipelex's structured search): the findings are structured by the deck's
  // default LLM into the output concept.
  const llm = ctx.deck.resolve(undefined, 'llm');
  const sources = Array.isArray(result['sources']) ? (result['sources'] as Array<Record<string, unknown>>) : [];
  const findings = [`Answer: ${String(result['answer'] ?? '')}`, ...sources.map((s, i) => `Source ${i + 1}: ${String(s['title'] ?? '')} ${String(s['url'] ?? '')} ${String(s['snippet'] ?? '')}`)].join('\n');
  const isList = target.multiplicity.kind !== 'single';
  const count = target.multiplicity.kind === 'fixed' ? target.multiplicity.count : undefined;
  const structured = await ctx.deck.provider(llm).generateObject({
    model: llm,
    settings: {},
    seed: callSeed(ctx, inv, 'structure'),
    signal: ctx.signal,
    attachments: [],
    prompt: `Structure these web search findings about: ${query.text}\n\n${findings}`,
    schema: isList ? conceptListJsonSchema(ctx.catalog, target.info, count, { forGeneration: true }) : conceptJsonSchema(ctx.catalog, target.info, { forGeneration: true }),
    schemaName: target.info.code,
    concept: isList ? { catalog: ctx.catalog, info: target.info, list: count !== undefined ? { count } : {} } : { catalog: ctx.catalog, info: target.info },
  });
  const items = isList ? ((structured as Record<string, unknown> | undefined)?.['items'] as unknown[] | undefined) : [structured];
  if (!Array.isArray(items)) throw failure(pipe, 'the structured search findings hold no list of items');
  return finishOutput(ctx, pipe, target, items);
};
