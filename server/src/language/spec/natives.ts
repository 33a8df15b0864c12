// The native concepts: always in scope (domain `native`), usable bare or as `native.Code`.
// This is the set pinned at MTHDS 3.0.0, plus `Markdown`, which the current reference runtime
// ships as a native refining Text. Field order matters (schemas and mocks follow it).

export type ScalarFieldType = 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time';
export type FieldType = ScalarFieldType | 'list' | 'dict' | 'concept';

/** A field of a native concept's content, in the same terms as a user structure field. */
export interface NativeField {
  name: string;
  type: FieldType;
  required: boolean;
  description: string;
  /** For type 'concept' and for lists of concepts: the native concept held. */
  concept?: string;
  /** For lists: the item type. */
  itemType?: ScalarFieldType | 'concept';
  /** For dicts: the value type ('Any' when unspecified). */
  valueType?: string;
}

export interface NativeConcept {
  code: string;
  description: string;
  /** Content fields, in order. Empty for structureless natives. */
  fields: readonly NativeField[];
  /** Dynamic, Anything, Composite: no structure to walk or check. */
  structureless: boolean;
  /** Single-field natives a path may end on but never enter. */
  leaf: boolean;
  /** The native this one refines: its values are accepted wherever the parent's are. */
  refines?: string;
}

const text = (name: string, required: boolean, description: string): NativeField => ({ name, type: 'text', required, description });

export const NATIVE_CONCEPTS: readonly NativeConcept[] = [
  { code: 'Dynamic', description: 'A value whose concept is decided at run time.', fields: [], structureless: true, leaf: false },
  { code: 'Text', description: 'A piece of text.', fields: [text('text', true, 'The text.')], structureless: false, leaf: true },
  {
    code: 'Markdown',
    description: 'A piece of text written in Markdown (refines Text).',
    fields: [text('text', true, 'The Markdown text.')],
    structureless: false,
    leaf: true,
    refines: 'Text',
  },
  {
    code: 'Image',
    description: 'An image, by URL (storage URI, http(s) or base64 data URL).',
    fields: [
      text('url', true, 'Where the image is: storage URI, http(s) URL or data URL.'),
      text('public_url', false, 'A publicly reachable URL of the image.'),
      text('source_prompt', false, 'The prompt the image was generated from.'),
      text('source_negative_prompt', false, 'The negative prompt the image was generated with.'),
      text('caption', false, 'A caption describing the image.'),
      text('mime_type', false, 'The media type, e.g. image/png.'),
      { name: 'width', type: 'integer', required: false, description: 'Width in pixels (given with height).' },
      { name: 'height', type: 'integer', required: false, description: 'Height in pixels (given with width).' },
      text('filename', false, 'The original file name.'),
    ],
    structureless: false,
    leaf: false,
  },
  {
    code: 'Document',
    description: 'A document (PDF, web page, office file...), by URL.',
    fields: [
      text('url', true, 'Where the document is.'),
      text('public_url', false, 'A publicly reachable URL of the document.'),
      text('mime_type', false, 'The media type, e.g. application/pdf.'),
      text('filename', false, 'The original file name.'),
      text('title', false, 'The document title.'),
      text('snippet', false, 'A short excerpt.'),
    ],
    structureless: false,
    leaf: false,
  },
  {
    code: 'Html',
    description: 'A fragment of HTML.',
    fields: [text('inner_html', true, 'The HTML markup.'), text('css_class', false, 'A CSS class for the wrapper.')],
    structureless: false,
    leaf: false,
  },
  {
    code: 'TextAndImages',
    description: 'Text with the images that go with it.',
    fields: [
      { name: 'text', type: 'concept', concept: 'Text', required: false, description: 'The text.' },
      { name: 'images', type: 'list', itemType: 'concept', concept: 'Image', required: false, description: 'The images.' },
      text('raw_html', false, 'The raw HTML the text came from.'),
    ],
    structureless: false,
    leaf: false,
  },
  { code: 'Number', description: 'A number.', fields: [{ name: 'number', type: 'number', required: true, description: 'The number.' }], structureless: false, leaf: true },
  {
    code: 'YesNo',
    description: 'A yes/no verdict.',
    fields: [
      { name: 'yes_no', type: 'boolean', required: true, description: 'The verdict.' },
      { name: 'probability', type: 'number', required: false, description: 'Probability of yes (0 to 1), only when measured.' },
    ],
    structureless: false,
    leaf: false,
  },
  {
    code: 'Choice',
    description: 'A choice among named options.',
    fields: [
      text('choice', true, 'The key of the chosen option.'),
      { name: 'confidence', type: 'number', required: false, description: 'Confidence in the choice.' },
      { name: 'probabilities', type: 'dict', valueType: 'number', required: false, description: 'Probability of each option.' },
    ],
    structureless: false,
    leaf: false,
  },
  {
    code: 'Rating',
    description: 'A rating on a scale of levels (0-based).',
    fields: [
      { name: 'level', type: 'integer', required: true, description: 'The chosen level, 0-based.' },
      { name: 'confidence', type: 'number', required: false, description: 'Confidence in the rating.' },
      { name: 'probabilities', type: 'dict', valueType: 'number', required: false, description: 'Probability of each level ("0", "1", ...).' },
      { name: 'position', type: 'number', required: false, description: 'Expected position on the scale.' },
    ],
    structureless: false,
    leaf: false,
  },
  {
    code: 'Date',
    description: 'A calendar date, with a time of day when the source states one.',
    fields: [
      { name: 'date', type: 'date', required: true, description: 'The date (YYYY-MM-DD).' },
      { name: 'time', type: 'time', required: false, description: 'The time of day, when stated.' },
    ],
    structureless: false,
    leaf: false,
  },
  { code: 'Time', description: 'A time of day.', fields: [{ name: 'time', type: 'time', required: true, description: 'The time (HH:MM:SS, optional offset).' }], structureless: false, leaf: true },
  {
    code: 'Page',
    description: 'One page of an extracted document.',
    fields: [
      { name: 'text_and_images', type: 'concept', concept: 'TextAndImages', required: true, description: 'The page content.' },
      { name: 'page_view', type: 'concept', concept: 'Image', required: false, description: 'A rendered image of the page.' },
    ],
    structureless: false,
    leaf: false,
  },
  { code: 'JSON', description: 'An arbitrary JSON object.', fields: [{ name: 'json_obj', type: 'dict', valueType: 'Any', required: true, description: 'The object.' }], structureless: false, leaf: true },
  {
    code: 'SearchResult',
    description: 'The answer of a web search with its sources.',
    fields: [
      text('answer', true, 'The answer.'),
      { name: 'sources', type: 'list', itemType: 'concept', concept: 'Document', required: true, description: 'The sources.' },
    ],
    structureless: false,
    leaf: false,
  },
  { code: 'Anything', description: 'Accepts any value.', fields: [], structureless: true, leaf: false },
  { code: 'Composite', description: 'A named composition of values (e.g. the branches of a PipeParallel).', fields: [], structureless: true, leaf: false },
];

const BY_CODE = new Map(NATIVE_CONCEPTS.map((c) => [c.code, c]));

export function getNative(code: string): NativeConcept | undefined {
  return BY_CODE.get(code);
}

export function isNativeCode(code: string): boolean {
  return BY_CODE.has(code);
}

/** Natives of earlier generations, no longer in the set, and the native that replaces each. */
export const RETIRED_NATIVES: Readonly<Record<string, string>> = {
  ImgGenPrompt: 'Text',
  PDF: 'Document',
  LlmPrompt: 'Text',
  TextAndImage: 'TextAndImages',
};
