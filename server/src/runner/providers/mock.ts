// The deterministic mock provider: the runner's embedded default. It calls nothing; every answer
// is derived from the call's seed (the run inputs and the call's place in the method) and the
// prompt, so one run always gives the same outputs. Structured answers are minted from the
// output concept's structure (language/mock.ts), others from the requested JSON Schema.

import { createRng, hashSeed, hashSeedOf, mintContent, mintFromSchema, mintList } from '../../language/mock.js';
import type { ExtractRequest, ImageRequest, ObjectRequest, Provider, SearchRequest, TextRequest } from './types.js';

function digest(text: string): string {
  return hashSeed(text).toString(36);
}

function excerpt(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Waits `ms`, or until the call is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class MockProvider implements Provider {
  readonly name = 'mock';

  /** `latencyMs`: how long every call takes (a model's answer is never instant). */
  constructor(private readonly latencyMs = 0) {}

  async generateText(request: TextRequest): Promise<string> {
    await pause(this.latencyMs, request.signal);
    const rng = createRng(hashSeedOf(request.seed, '|', request.prompt, '|', request.system ?? ''));
    const words = ['clear', 'concise', 'grounded', 'careful', 'brief', 'plain'];
    return `Mock ${rng.pick(words)} answer ${hashSeedOf(request.seed, request.prompt).toString(36)} from ${request.model.name} to: ${excerpt(request.prompt) || '(empty prompt)'}`;
  }

  async generateObject(request: ObjectRequest): Promise<unknown> {
    await pause(this.latencyMs, request.signal);
    const rng = createRng(hashSeedOf(request.seed, '|', request.prompt));
    const concept = request.concept;
    if (concept) {
      const options = { forGeneration: true, label: concept.info.code };
      if (concept.list) {
        const count = concept.list.count ?? rng.int(2, 3);
        return { items: mintList(concept.catalog, concept.info, count, rng, options) };
      }
      return mintContent(concept.catalog, concept.info, rng, options);
    }
    return mintFromSchema(request.schema, rng, request.schemaName);
  }

  async generateImages(request: ImageRequest): Promise<Array<Record<string, unknown>>> {
    await pause(this.latencyMs, request.signal);
    const out: Array<Record<string, unknown>> = [];
    for (let i = 0; i < request.count; i++) {
      const id = digest(`${request.seed}|${request.prompt}|${i}`);
      const image: Record<string, unknown> = {
        url: `mock://image/${id}.${request.outputFormat ?? 'png'}`,
        mime_type: `image/${request.outputFormat === 'jpeg' ? 'jpeg' : request.outputFormat ?? 'png'}`,
        width: 1024,
        height: 1024,
        source_prompt: request.prompt,
      };
      if (request.negativePrompt) image['source_negative_prompt'] = request.negativePrompt;
      out.push(image);
    }
    return out;
  }

  async extractPages(request: ExtractRequest): Promise<Array<Record<string, unknown>>> {
    await pause(this.latencyMs, request.signal);
    const rng = createRng(`${request.seed}|${String(request.source['url'])}`);
    const count = request.sourceKind === 'image' ? 1 : rng.int(1, 3);
    return Array.from({ length: count }, (_, i) => {
      const page: Record<string, unknown> = {
        text_and_images: { text: { text: `Mock page ${i + 1} of ${String(request.source['url'])}: ${digest(`${request.seed}|${i}`)}` }, images: [] },
      };
      if (request.pageViews) page['page_view'] = { url: `mock://page-view/${digest(`${request.seed}|view|${i}`)}.png`, mime_type: 'image/png' };
      return page;
    });
  }

  async search(request: SearchRequest): Promise<Record<string, unknown>> {
    await pause(this.latencyMs, request.signal);
    const id = digest(`${request.seed}|${request.query}`);
    const n = Math.min(request.maxResults ?? 2, 5);
    return {
      answer: `Mock search answer ${id} to: ${excerpt(request.query)}`,
      sources: Array.from({ length: n }, (_, i) => ({ url: `https://example.com/mock/${id}/${i + 1}`, title: `Mock source ${i + 1}`, snippet: `Mock snippet ${i + 1} about ${excerpt(request.query, 30)}` })),
    };
  }
}
