// Inline model settings tables (`model = { model = "...", temperature = 0.2 }`), one per pipe kind.

import type { FieldSpec, TableSpec, ValueSpec } from './values.js';

const modelName: FieldSpec = {
  name: 'model',
  required: true,
  value: { kind: 'string', nonEmpty: true, role: 'model-ref' },
  doc: 'The model: a handle, `$preset`, `@alias` or `~waterfall`.',
};
const settingDescription: FieldSpec = { name: 'description', value: { kind: 'string' }, doc: 'What this setting is for.' };

export const LLM_SETTING: TableSpec = {
  kind: 'table',
  name: 'LLM setting',
  closed: true,
  code: 'method.model_setting_invalid',
  fields: [
    modelName,
    { name: 'temperature', required: true, value: { kind: 'number', min: 0, max: 1 }, doc: 'Sampling temperature, 0 to 1.' },
    { name: 'max_tokens', value: { kind: 'oneOf', options: [{ kind: 'integer', min: 1 }, { kind: 'string', enum: ['auto'] }] }, doc: 'Maximum tokens to generate, or "auto".' },
    { name: 'image_detail', value: { kind: 'string', enum: ['high', 'low', 'auto'] }, doc: 'Detail level for images sent to the model.' },
    { name: 'prompting_target', value: { kind: 'string', enum: ['openai', 'anthropic', 'mistral', 'gemini', 'fal'] }, doc: 'Provider family the prompt is tuned for.' },
    { name: 'reasoning_effort', value: { kind: 'string', enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] }, doc: 'Reasoning effort for reasoning models.' },
    { name: 'reasoning_budget', value: { kind: 'integer', min: 1 }, doc: 'Reasoning token budget (exclusive with reasoning_effort).' },
    settingDescription,
  ],
  rules: [{ rule: 'atMostOne', keys: ['reasoning_effort', 'reasoning_budget'] }],
};

export const IMG_GEN_SETTING: TableSpec = {
  kind: 'table',
  name: 'image generation setting',
  closed: true,
  code: 'method.model_setting_invalid',
  fields: [
    modelName,
    { name: 'quality', value: { kind: 'string', enum: ['low', 'medium', 'high'] }, doc: 'Quality tier (exclusive with nb_steps).' },
    { name: 'nb_steps', value: { kind: 'integer', min: 1 }, doc: 'Number of diffusion steps.' },
    { name: 'guidance_scale', value: { kind: 'number', exclusiveMin: 0 }, doc: 'Guidance scale, above 0.' },
    { name: 'is_moderated', value: { kind: 'boolean' }, doc: 'Whether the provider moderates the output.' },
    { name: 'safety_tolerance', value: { kind: 'integer', min: 1, max: 6 }, doc: 'Safety tolerance, 1 to 6.' },
    settingDescription,
  ],
  rules: [{ rule: 'atMostOne', keys: ['quality', 'nb_steps'] }],
};

export const EXTRACT_SETTING: TableSpec = {
  kind: 'table',
  name: 'extraction setting',
  closed: true,
  code: 'method.model_setting_invalid',
  fields: [
    modelName,
    { name: 'max_nb_images', value: { kind: 'integer', min: 0 }, doc: 'Maximum number of images to extract.' },
    { name: 'image_min_size', value: { kind: 'integer', min: 0 }, doc: 'Minimum size of extracted images.' },
    settingDescription,
  ],
};

export const SEARCH_SETTING: TableSpec = {
  kind: 'table',
  name: 'search setting',
  closed: true,
  code: 'method.model_setting_invalid',
  fields: [
    modelName,
    { name: 'include_images', value: { kind: 'boolean' }, doc: 'Include images in the results (default false).' },
    { name: 'include_inline_citations', value: { kind: 'boolean' }, doc: 'Include inline citations (default true).' },
    { name: 'max_results', value: { kind: 'integer', min: 1 }, doc: 'Maximum number of results.' },
    settingDescription,
  ],
};

export const JUDGMENT_SETTING: TableSpec = {
  kind: 'table',
  name: 'judgment setting',
  closed: true,
  code: 'method.model_setting_invalid',
  fields: [modelName, settingDescription],
};

/** A `model` field: a reference string or the pipe kind's settings table. */
export function modelField(setting: TableSpec | undefined, doc: string, name = 'model'): FieldSpec {
  const reference: ValueSpec = { kind: 'string', nonEmpty: true, role: 'model-ref' };
  return { name, value: setting ? { kind: 'oneOf', options: [reference, setting] } : reference, doc };
}
