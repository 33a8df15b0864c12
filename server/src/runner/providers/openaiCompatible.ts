// Real inference through an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LM Studio, gateways),
// by the Vercel AI SDK. The API key is read from the environment variable the deck names, at call
// time, so that a key set after start-up is honoured and a missing key is a clear refusal (naming
// the variable). Requests are bounded (connection, first byte, whole answer: timedFetch.ts); a
// failure is logged with the provider, its endpoint and the cause, and its problem says what
// happened: refused, timed out, the HTTP status, or an answer that could not be used.
//
// What such endpoints cannot do is refused, never imitated: web search has no OpenAI-compatible
// API, so search models cannot be served here; extraction is a vision transcription of an image.

import { createOpenAICompatible, type OpenAICompatibleProvider as SdkProvider } from '@ai-sdk/openai-compatible';
import { APICallError, generateImage, generateObject, generateText, jsonSchema, NoObjectGeneratedError, RetryError } from 'ai';
import type { NetworkPolicy, ProviderConfig } from '../deckConfig.js';
import { guardedDownload } from '../network.js';
import { Refusal } from '../refusal.js';
import { DEFAULT_PROVIDER_TIMEOUTS, ProviderFault, timedFetch, type ProviderTimeouts } from './timedFetch.js';
import type { Attachment, ExtractRequest, ImageRequest, ModelSettings, ObjectRequest, Provider, SearchRequest, TextRequest } from './types.js';

type Content = Array<{ type: 'text'; text: string } | { type: 'image'; image: URL | string; mediaType?: string }>;

function userContent(prompt: string, attachments: readonly Attachment[]): Content {
  const parts: Content = [{ type: 'text', text: prompt }];
  for (const a of attachments) {
    // data: URLs travel inline; http(s) URLs are passed by reference; anything else (mock://,
    // storage URIs) has no meaning to the endpoint and is left out.
    if (a.url.startsWith('data:')) parts.push({ type: 'image', image: a.url });
    else if (/^https?:\/\//.test(a.url)) {
      // An address that does not parse (a model may produce one) is left out like other schemes.
      let url: URL;
      try {
        url = new URL(a.url);
      } catch {
        continue;
      }
      parts.push(a.mimeType ? { type: 'image', image: url, mediaType: a.mimeType } : { type: 'image', image: url });
    }
  }
  return parts;
}

function callSettings(settings: ModelSettings): { temperature?: number; maxOutputTokens?: number } {
  const out: { temperature?: number; maxOutputTokens?: number } = {};
  if (typeof settings.temperature === 'number') out.temperature = settings.temperature;
  if (typeof settings.maxTokens === 'number') out.maxOutputTokens = settings.maxTokens;
  return out;
}

const NO_PRIVATE: NetworkPolicy = { allowPrivate: false, downloadMaxBytes: 20 * 1024 * 1024, downloadTimeoutMs: 30_000 };

type DownloadFunction = NonNullable<Parameters<typeof generateText>[0]['experimental_download']>;

/**
 * The SDK downloads the http(s) files of a prompt that the endpoint does not take by URL: these
 * downloads go through the runner's guard (network.ts), never through an unguarded fetch, so that a
 * URL named by an input or produced by a model cannot reach the runner's own network.
 */
function downloader(network: NetworkPolicy, signal: AbortSignal): DownloadFunction {
  return (requested) =>
    Promise.all(
      requested.map(async ({ url }, i) => {
        const { data, mediaType } = await guardedDownload(url, { allowPrivate: network.allowPrivate, field: `attachments.${i + 1}.url`, maxBytes: network.downloadMaxBytes, timeoutMs: network.downloadTimeoutMs, signal });
        return { data, mediaType };
      }),
    );
}

export class OpenAICompatibleProvider implements Provider {
  readonly name: string;
  private client: SdkProvider | undefined;
  private clientKey: string | undefined;
  private readonly fetch: typeof fetch;

  constructor(
    private readonly config: ProviderConfig,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly network: NetworkPolicy = NO_PRIVATE,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.name = config.name;
    this.fetch = timedFetch(providerTimeouts(config));
  }

  private sdk(): SdkProvider {
    const key = this.config.api_key_env ? this.env[this.config.api_key_env] : undefined;
    if (this.config.api_key_env && !key) {
      this.log(`provider ${this.name} (${this.config.base_url}): not configured: the environment variable ${this.config.api_key_env} (api_key_env) is not set`);
      throw new Refusal('mthdsls.provider.not_configured', { provider: this.name }, { detail: `The inference provider ${this.name} is not configured on this runner: the environment variable ${this.config.api_key_env} that holds its API key is not set.` });
    }
    if (!this.client || this.clientKey !== key) {
      this.client = createOpenAICompatible({ name: this.name, baseURL: this.config.base_url, ...(key ? { apiKey: key } : {}), supportsStructuredOutputs: true, fetch: this.fetch });
      this.clientKey = key;
    }
    return this.client;
  }

  /** What a text and a structured call share: the prompt, the settings and the guarded downloads. */
  private chatCall(request: TextRequest) {
    return {
      ...(request.system ? { system: request.system } : {}),
      messages: [{ role: 'user' as const, content: userContent(request.prompt, request.attachments) }],
      ...callSettings(request.settings),
      abortSignal: request.signal,
      maxRetries: 1,
      experimental_download: downloader(this.network, request.signal),
    };
  }

  async generateText(request: TextRequest): Promise<string> {
    const sdk = this.sdk();
    return this.guard(async () => {
      const result = await generateText({ model: sdk.chatModel(request.model.modelId), ...this.chatCall(request) });
      return result.text;
    });
  }

  async generateObject(request: ObjectRequest): Promise<unknown> {
    const sdk = this.sdk();
    return this.guard(async () => {
      const result = await generateObject({
        model: sdk.chatModel(request.model.modelId),
        schema: jsonSchema(request.schema as never),
        schemaName: request.schemaName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'output',
        ...this.chatCall(request),
      });
      return result.object;
    });
  }

  async generateImages(request: ImageRequest): Promise<Array<Record<string, unknown>>> {
    const sdk = this.sdk();
    return this.guard(async () => {
      const size = request.size && /^\d+x\d+$/.test(request.size) ? (request.size as `${number}x${number}`) : undefined;
      const result = await generateImage({
        model: sdk.imageModel(request.model.modelId),
        prompt: request.negativePrompt ? `${request.prompt}\n\nAvoid: ${request.negativePrompt}` : request.prompt,
        n: request.count,
        ...(size ? { size } : {}),
        ...(request.imageSeed !== undefined ? { seed: request.imageSeed } : {}),
        abortSignal: request.signal,
        maxRetries: 1,
      });
      return result.images.map((image) => {
        const content: Record<string, unknown> = { url: `data:${image.mediaType};base64,${image.base64}`, mime_type: image.mediaType, source_prompt: request.prompt };
        if (request.negativePrompt) content['source_negative_prompt'] = request.negativePrompt;
        return content;
      });
    });
  }

  async extractPages(request: ExtractRequest): Promise<Array<Record<string, unknown>>> {
    if (request.sourceKind !== 'image') {
      throw new Refusal('input.file_type_unsupported', { input: request.inputName, format: typeof request.source['mime_type'] === 'string' ? request.source['mime_type'] : 'document', model: request.model.name });
    }
    const text = await this.generateText({
      model: request.model,
      seed: request.seed,
      signal: request.signal,
      settings: request.settings,
      system: 'Transcribe all the text visible in the image, faithfully, as plain text. Output only the transcription.',
      prompt: 'Transcribe [Image 1].',
      attachments: [{ index: 1, url: String(request.source['url']) }],
    });
    return [{ text_and_images: { text: { text }, images: [] } }];
  }

  async search(_request: SearchRequest): Promise<Record<string, unknown>> {
    throw new Refusal('mthdsls.provider.not_configured', { provider: this.name }, { detail: `The provider ${this.name} is OpenAI-compatible and offers no web search; configure a search model of another provider.` });
  }

  /** Maps SDK failures to the provider codes of the registry, and tells the operator. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const diagnosis = this.diagnose(error);
      if (diagnosis.log) this.log(`provider ${this.name} (${this.config.base_url}): ${diagnosis.log}`);
      throw diagnosis.refusal;
    }
  }

  private diagnose(error: unknown): { refusal: unknown; log?: string } {
    if (error instanceof Refusal) return { refusal: error };
    const cause = RetryError.isInstance(error) ? error.lastError : error;
    const provider = this.name;
    const fault = faultIn(cause);
    if (fault) {
      const what =
        fault.kind === 'refused'
          ? 'refused the connection'
          : fault.kind === 'network'
            ? 'could not be reached'
            : `did not answer in time (${fault.kind === 'connect_timeout' ? 'connection' : fault.kind === 'first_byte_timeout' ? 'first byte' : 'whole answer'}: ${fault.message})`;
      return { refusal: new Refusal('mthdsls.provider.unavailable', { provider }, { detail: `The inference provider ${provider} ${what}.` }), log: fault.message };
    }
    if (APICallError.isInstance(cause)) {
      const status = cause.statusCode;
      const body = excerpt(cause.responseBody);
      const log = `${status !== undefined ? `HTTP ${status}` : 'no answer'} from ${cause.url}${body ? `: ${body}` : ''}`;
      if (status === 429) {
        const retry = Number(cause.responseHeaders?.['retry-after']);
        return { refusal: new Refusal('mthdsls.provider.rate_limited', { provider }, Number.isFinite(retry) && retry >= 0 ? { retryAfter: retry } : {}), log };
      }
      if (status === 401 || status === 403) return { refusal: new Refusal('mthdsls.provider.not_configured', { provider }, { detail: `The inference provider ${provider} refused the runner's credentials (HTTP ${status}).` }), log };
      if (status === 400 && /content[_ ]?(policy|filter)|safety/i.test(String(cause.responseBody ?? ''))) {
        return { refusal: new Refusal('mthdsls.provider.refused', { provider, finding: 'the request was refused under the provider content policy' }), log };
      }
      if (status !== undefined && status >= 500) return { refusal: new Refusal('mthdsls.provider.unavailable', { provider }, { detail: `The inference provider ${provider} answered HTTP ${status}.` }), log };
      if (status === undefined) return { refusal: new Refusal('mthdsls.provider.unavailable', { provider }, { detail: `The inference provider ${provider} could not be reached.` }), log: `${cause.message}` };
      if (status >= 200 && status < 300) return { refusal: new Refusal('mthdsls.provider.invalid_response', { provider, finding: 'its answer is not a readable completion' }), log: `unusable answer (HTTP ${status}) from ${cause.url}: ${cause.message}${body ? `: ${body}` : ''}` };
      return { refusal: new Refusal('mthdsls.provider.invalid_response', { provider, finding: `the provider answered HTTP ${status}` }), log };
    }
    if (NoObjectGeneratedError.isInstance(cause)) {
      return { refusal: new Refusal('mthdsls.provider.invalid_response', { provider, finding: 'the answer is not an object of the requested schema' }), log: `unusable answer: ${cause.message}` };
    }
    if (cause instanceof Error && (cause.name === 'AbortError' || cause.name === 'TimeoutError')) return { refusal: cause };
    // Network failures (connection refused, DNS) surface as TypeErrors from fetch.
    if (cause instanceof TypeError || (cause instanceof Error && /fetch failed|ECONNREFUSED|ENOTFOUND|socket/i.test(cause.message))) {
      return { refusal: new Refusal('mthdsls.provider.unavailable', { provider }, { detail: `The inference provider ${provider} could not be reached.` }), log: cause.message };
    }
    return { refusal: new Refusal('mthdsls.provider.invalid_response', { provider, finding: 'its answer could not be used' }), log: `unusable answer: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}

/** The bounds of one request to a provider: its config's, else the defaults. */
export function providerTimeouts(config: ProviderConfig): ProviderTimeouts {
  return {
    connectMs: config.timeouts?.connect_ms ?? DEFAULT_PROVIDER_TIMEOUTS.connectMs,
    firstByteMs: config.timeouts?.first_byte_ms ?? DEFAULT_PROVIDER_TIMEOUTS.firstByteMs,
    totalMs: config.timeouts?.total_ms ?? DEFAULT_PROVIDER_TIMEOUTS.totalMs,
  };
}

/** The ProviderFault an SDK error carries, however deep. */
function faultIn(error: unknown): ProviderFault | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ProviderFault) return e;
  }
  return undefined;
}

/** A provider's answer body for a log line: one line, 200 characters at most. */
function excerpt(body: unknown): string {
  return typeof body === 'string' ? body.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
}
