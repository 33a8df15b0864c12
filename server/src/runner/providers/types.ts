// THE provider interface: every operator reaches inference through it (text, structured objects,
// images, page extraction, search). Two implementations: the deterministic mock (the embedded
// default) and OpenAI-compatible endpoints through the Vercel AI SDK.

import type { ConceptCatalog, ConceptInfo, JsonSchema } from '../../language/jsonSchema.js';
import type { ModelType } from '../deckConfig.js';

export interface DeckModel {
  /** The name in the deck (what GET /models lists and bundles may name). */
  name: string;
  type: ModelType;
  /** Name of the provider serving it (`mock` for the built-in models). */
  provider: string;
  /** The provider's own id for the model. */
  modelId: string;
}

/** An image (or document) attached to a model call, as inserted in the prompt as `[Image N]`. */
export interface Attachment {
  index: number;
  url: string;
  mimeType?: string;
}

/** Model settings from an inline settings table (`model = { model = "...", temperature = 0.2 }`). */
export interface ModelSettings {
  temperature?: number;
  maxTokens?: number;
  [key: string]: unknown;
}

interface Call {
  model: DeckModel;
  /**
   * Seed material: the run's inputs and the call's place in the method. The mock derives its values
   * from it, so the same run gives the same outputs.
   */
  seed: string;
  signal: AbortSignal;
  settings: ModelSettings;
}

export interface TextRequest extends Call {
  system?: string;
  prompt: string;
  attachments: Attachment[];
}

export interface ObjectRequest extends TextRequest {
  /** The JSON Schema the answer must satisfy. */
  schema: JsonSchema;
  schemaName: string;
  /**
   * The concept the schema was derived from, when it was: the mock mints from the concept's
   * structure (language/mock.ts) rather than from the schema.
   */
  concept?: { catalog: ConceptCatalog; info: ConceptInfo; list?: { count?: number } };
}

export interface ImageRequest extends Call {
  prompt: string;
  negativePrompt?: string;
  count: number;
  references: Attachment[];
  aspectRatio?: string;
  size?: string;
  imageSeed?: number;
  outputFormat?: string;
}

export interface ExtractRequest extends Call {
  /** Name of the pipe input holding the source (for refusals that name the input). */
  inputName: string;
  /** The Document or Image content to extract pages from. */
  source: Record<string, unknown>;
  sourceKind: 'document' | 'image';
  pageViews: boolean;
}

export interface SearchRequest extends Call {
  query: string;
  maxResults?: number;
  fromDate?: string;
  toDate?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
}

export interface Provider {
  readonly name: string;
  generateText(request: TextRequest): Promise<string>;
  /** An object satisfying `request.schema`. */
  generateObject(request: ObjectRequest): Promise<unknown>;
  /** Image contents (`url` required), `request.count` of them. */
  generateImages(request: ImageRequest): Promise<Array<Record<string, unknown>>>;
  /** Page contents, in order. */
  extractPages(request: ExtractRequest): Promise<Array<Record<string, unknown>>>;
  /** A SearchResult content. */
  search(request: SearchRequest): Promise<Record<string, unknown>>;
}
