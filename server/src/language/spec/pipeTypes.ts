// Every pipe type of the language, its fields and its rules: THE description that validation,
// completion, hover, semantic tokens and the runner read. Retired forms stay listed so that their
// use gets a migration message instead of a bare "unknown".

import { EXTRACT_SETTING, IMG_GEN_SETTING, JUDGMENT_SETTING, LLM_SETTING, SEARCH_SETTING, modelField } from './settings.js';
import { SNAKE } from './lexical.js';
import type { FieldSpec, ModelCategory, TableRule, TableSpec, TemplateCategory, ValueSpec } from './values.js';

export type PipeTypeName =
  | 'PipeLLM'
  | 'PipeStructure'
  | 'PipeFunc'
  | 'PipeImgGen'
  | 'PipeExtract'
  | 'PipeSearch'
  | 'PipeJudge'
  | 'PipeCompose'
  | 'PipeDocGen'
  | 'PipeSequence'
  | 'PipeParallel'
  | 'PipeCondition'
  | 'PipeBatch';

/** How a pipe's declared inputs relate to what it reads (language reference §4.5). */
export type InputRule =
  /** Templates read only declared inputs, and every declared input is read. */
  | 'templates-both-ways'
  /** Templates read only declared inputs; inputs need not be read. */
  | 'templates-read-declared'
  /** No template reading: declared inputs are the pipe's needs. */
  | 'declared-needs'
  /** Controllers: needs are computed from the children. */
  | 'controller';

export interface PipeTypeSpec {
  name: PipeTypeName;
  kind: 'operator' | 'controller';
  doc: string;
  /** Every key the section may hold, the common ones included. */
  fields: readonly FieldSpec[];
  rules: readonly TableRule[];
  modelCategory?: ModelCategory;
  inputRule: InputRule;
  /** Output multiplicity the type allows. */
  outputMultiplicity: 'any' | 'single' | 'list';
  /** Part of the MTHDS standard, or an extension of the reference runtime only. */
  standard: boolean;
  /** Snippet body (LSP snippet syntax) for the keys after the header. */
  snippet: string;
}

const tagStyle: ValueSpec = { kind: 'string', enum: ['no_tag', 'ticks', 'xml', 'square_brackets'] };
const textFormat: ValueSpec = { kind: 'string', enum: ['plain', 'markdown', 'html', 'json'] };
const templatingStyleTable: TableSpec = {
  kind: 'table',
  name: 'templating style',
  closed: true,
  fields: [
    { name: 'tag_style', required: true, value: tagStyle, doc: 'How `tag` wraps values: no_tag, ticks, xml or square_brackets.' },
    { name: 'text_format', value: textFormat, doc: 'How values render as text: plain (default), markdown, html or json.' },
  ],
};

const TEMPLATE_CATEGORIES: readonly TemplateCategory[] = ['basic', 'expression', 'html', 'markdown', 'mermaid', 'llm_prompt', 'img_gen_prompt'];

function template(category: TemplateCategory, shorthands = true): ValueSpec {
  return { kind: 'string', role: 'template', category, shorthands };
}

export const IO_REF_DOC =
  'A concept reference: `Concept`, `domain.Concept` or `alias->domain.Concept`, optionally with a multiplicity (`[]` for a list, `[N]` for exactly N) and, for inputs, a presence marker (`?` optional, `!` forced).';

/** The expanded form of an input: `{ concept = "...", hints = { ... } }`. */
export const INPUT_SLOT_TABLE: TableSpec = {
  kind: 'table',
  name: 'input slot',
  closed: true,
  fields: [
    { name: 'concept', required: true, value: { kind: 'string', role: 'io-ref' }, doc: `The concept of the input. ${IO_REF_DOC}` },
    { name: 'hints', value: { kind: 'custom', name: 'hints' }, doc: 'Intent hints for this input, e.g. `{ intent = "prose" }`.' },
  ],
};

const common: readonly FieldSpec[] = [
  { name: 'type', required: true, value: { kind: 'string', role: 'pipe-type' }, doc: 'The pipe type. Omit it to declare a signature (a contract without implementation).' },
  { name: 'description', required: true, value: { kind: 'string', role: 'description' }, doc: 'What the pipe does.' },
  { name: 'inputs', value: { kind: 'custom', name: 'input-slot' }, doc: `The pipe's inputs: \`name = "Concept"\` or \`name = { concept = "Concept", hints = { ... } }\`. ${IO_REF_DOC}` },
  { name: 'output', required: true, value: { kind: 'string', role: 'io-ref' }, doc: `The concept the pipe produces. ${IO_REF_DOC} Only \`?\` is allowed as a marker.` },
];

function retired(name: string, message: string, replacement?: string): FieldSpec {
  return { name, value: { kind: 'any' }, doc: message, retired: replacement ? { message, replacement } : { message } };
}

/** A step of a PipeSequence, or a branch of a PipeParallel. */
export const STEP_TABLE: TableSpec = {
  kind: 'table',
  name: 'step',
  closed: true,
  fields: [
    { name: 'pipe', value: { kind: 'string', role: 'pipe-ref', nonEmpty: true }, doc: 'The pipe this step runs.' },
    // Its grammar is a binding-step rule (method.binding_step_invalid), checked with the data flow.
    { name: 'from', value: { kind: 'string', role: 'path' }, doc: 'Binding step: copy the value at this working-memory path, e.g. `invoice.total`.' },
    { name: 'result', value: { kind: 'string', role: 'stored-name' }, doc: 'Name under which the step output is stored in working memory.' },
    { name: 'nb_output', value: { kind: 'integer', min: 1 }, doc: 'Ask the step pipe for exactly this many outputs.' },
    { name: 'multiple_output', value: { kind: 'boolean' }, doc: 'Ask the step pipe for a list of outputs of its choosing.' },
    { name: 'batch_over', value: { kind: 'string', nonEmpty: true }, doc: 'Run the step once per item of this list (a name or a dotted path).' },
    { name: 'batch_as', value: { kind: 'string', role: 'stored-name' }, doc: 'Name of the current item inside a batched step.' },
  ],
  rules: [
    { rule: 'atMostOne', keys: ['nb_output', 'multiple_output'] },
    { rule: 'together', keys: ['batch_over', 'batch_as'] },
  ],
};

const stepsArray: ValueSpec = { kind: 'array', items: STEP_TABLE, minItems: 1 };

const judgeOptions: ValueSpec = { kind: 'map', name: 'options', values: { kind: 'string' }, minEntries: 2, doc: 'Option key to its description.' };
const judgeCriteria: TableSpec = {
  kind: 'table',
  name: 'criteria',
  closed: true,
  fields: [
    { name: 'yes', required: true, value: { kind: 'string', nonEmpty: true }, doc: 'When the answer is yes.' },
    { name: 'no', required: true, value: { kind: 'string', nonEmpty: true }, doc: 'When the answer is no.' },
  ],
};
const judgeThreshold: ValueSpec = { kind: 'number', exclusiveMin: 0, exclusiveMax: 1 };
const judgeQuestionFields: readonly FieldSpec[] = [
  { name: 'options', value: judgeOptions, doc: 'Named options: the verdict is a Choice.' },
  { name: 'levels', value: { kind: 'custom', name: 'levels' }, doc: 'Levels from lowest to highest (strings, or `{ label, description }` tables): the verdict is a Rating.' },
  { name: 'criteria', value: judgeCriteria, doc: 'Yes/no questions: what makes the answer yes, and no.' },
  { name: 'threshold', value: judgeThreshold, doc: 'Yes/no questions: probability above which the answer is yes (default 0.5).' },
];
const judgeQuestionRules: readonly TableRule[] = [
  { rule: 'atMostOne', keys: ['options', 'levels'] },
  { rule: 'atMostOne', keys: ['options', 'criteria'] },
  { rule: 'atMostOne', keys: ['options', 'threshold'] },
  { rule: 'atMostOne', keys: ['levels', 'criteria'] },
  { rule: 'atMostOne', keys: ['levels', 'threshold'] },
];
const judgeQuestionTable: TableSpec = {
  kind: 'table',
  name: 'question',
  closed: true,
  fields: [{ name: 'question', required: true, value: template('basic'), doc: 'The closed question.' }, ...judgeQuestionFields],
  rules: judgeQuestionRules,
};

const composeTemplateTable: TableSpec = {
  kind: 'table',
  name: 'template',
  closed: true,
  fields: [
    { name: 'template', required: true, value: template('basic'), doc: 'The Jinja2 template.' },
    { name: 'category', required: true, value: { kind: 'string', enum: TEMPLATE_CATEGORIES }, doc: 'How the template renders: basic, expression, html, markdown, mermaid, llm_prompt, img_gen_prompt.' },
    { name: 'templating_style', value: templatingStyleTable, doc: 'Tag style and text format used by the `tag` and `format` filters.' },
    { name: 'extra_context', value: { kind: 'map', name: 'extra context', values: { kind: 'any' } }, doc: 'Extra static variables available to the template.' },
  ],
};

const imageSizeTable: TableSpec = {
  kind: 'table',
  name: 'image size',
  closed: true,
  fields: [
    { name: 'width', required: true, value: { kind: 'integer', min: 1 }, doc: 'Width in pixels.' },
    { name: 'height', required: true, value: { kind: 'integer', min: 1 }, doc: 'Height in pixels.' },
  ],
};

const isoDate: ValueSpec = { kind: 'string', pattern: /^\d{4}-\d{2}-\d{2}$/, patternName: 'an ISO date (YYYY-MM-DD)' };

const LLM_RETIRED: readonly FieldSpec[] = [
  retired('llm', '`llm` was renamed `model`.', 'model'),
  retired('llm_to_structure', '`llm_to_structure` was renamed `model_to_structure`.', 'model_to_structure'),
  retired('prompt_template', '`prompt_template` was renamed `prompt`.', 'prompt'),
  retired('template_name', 'Named templates are retired: write the prompt inline in `prompt`.'),
  retired('system_prompt_template', '`system_prompt_template` was renamed `system_prompt`.', 'system_prompt'),
  retired('images', '`images` is retired: declare the images as inputs and reference them in the prompt.'),
  retired('nb_output', '`nb_output` is retired on pipes: write the count in the output, e.g. `output = "Idea[3]"`.'),
  retired('multiple_output', '`multiple_output` is retired on pipes: write a list output, e.g. `output = "Idea[]"`.'),
];

export const PIPE_TYPES: readonly PipeTypeSpec[] = [
  {
    name: 'PipeLLM',
    kind: 'operator',
    doc: 'Asks a large language model to produce the output concept from a prompt (text, or structured output matching the concept).',
    fields: [
      ...common,
      { name: 'prompt', value: template('llm_prompt'), doc: 'The prompt (Jinja2 template; `$var` inline, `@var` alone on its line, `@?var` when optional).' },
      { name: 'system_prompt', value: template('llm_prompt'), doc: "The system prompt; defaults to the bundle's `system_prompt`." },
      modelField(LLM_SETTING, 'The model: a reference string (handle, `$preset`, `@alias`, `~waterfall`) or an LLM setting table.'),
      modelField(LLM_SETTING, 'The model used to structure the output in `preliminary_text` mode.', 'model_to_structure'),
      { name: 'structuring_method', value: { kind: 'string', enum: ['direct', 'preliminary_text'] }, doc: 'How structured outputs are produced: `direct` (one call) or `preliminary_text` (text first, then structure).' },
      { name: 'templating_style', value: { kind: 'oneOf', options: [tagStyle, templatingStyleTable] }, doc: 'Tag style (or `{ tag_style, text_format }`) used when inputs are inserted into the prompt.' },
      ...LLM_RETIRED,
    ],
    rules: [],
    modelCategory: 'llm',
    inputRule: 'templates-both-ways',
    outputMultiplicity: 'any',
    standard: true,
    snippet: 'type = "PipeLLM"\ndescription = "${1:What it does}"\ninputs = { ${2:text} = "${3:Text}" }\noutput = "${4:Text}"\nprompt = """\n${5:Summarize \\$${2:text}.}\n"""',
  },
  {
    name: 'PipeStructure',
    kind: 'operator',
    doc: 'Turns one text input into the structured output concept.',
    fields: [...common, modelField(LLM_SETTING, 'The model that structures the text.')],
    rules: [],
    modelCategory: 'llm',
    inputRule: 'declared-needs',
    outputMultiplicity: 'any',
    standard: true,
    snippet: 'type = "PipeStructure"\ndescription = "${1:What it does}"\ninputs = { ${2:text} = "Text" }\noutput = "${3:Concept}"',
  },
  {
    name: 'PipeFunc',
    kind: 'operator',
    doc: 'Calls a function registered in the runtime.',
    fields: [...common, { name: 'function_name', required: true, value: { kind: 'string', nonEmpty: true, role: 'function' }, doc: 'The name of the registered function to call.' }],
    rules: [],
    inputRule: 'declared-needs',
    outputMultiplicity: 'any',
    standard: true,
    snippet: 'type = "PipeFunc"\ndescription = "${1:What it does}"\ninputs = { ${2:data} = "${3:Text}" }\noutput = "${4:Text}"\nfunction_name = "${5:my_function}"',
  },
  {
    name: 'PipeImgGen',
    kind: 'operator',
    doc: 'Generates images from a prompt (and optional reference images).',
    fields: [
      ...common,
      { name: 'prompt', required: true, value: template('img_gen_prompt'), doc: 'The image prompt (template).' },
      { name: 'negative_prompt', value: template('img_gen_prompt'), doc: 'What the image must not show (template).' },
      modelField(IMG_GEN_SETTING, 'The image model: a reference string or an image generation setting table.'),
      {
        name: 'aspect_ratio',
        value: { kind: 'string', enum: ['square', 'landscape_4_3', 'landscape_3_2', 'landscape_16_9', 'landscape_21_9', 'landscape_4_1', 'landscape_8_1', 'portrait_3_4', 'portrait_2_3', 'portrait_9_16', 'portrait_9_21', 'portrait_1_4', 'portrait_1_8'] },
        doc: 'The aspect ratio.',
      },
      {
        name: 'size',
        value: { kind: 'oneOf', options: [{ kind: 'string', pattern: /^(0\.5k|1k|2k|4k|[1-9]\d*x[1-9]\d*)$/, patternName: 'a size tier ("0.5k", "1k", "2k", "4k") or "WIDTHxHEIGHT"' }, imageSizeTable] },
        doc: 'A size tier (`0.5k`, `1k`, `2k`, `4k`), `"WxH"`, or `{ width, height }`.',
      },
      { name: 'is_raw', value: { kind: 'boolean' }, doc: 'Raw mode (less processed images), where the model supports it.' },
      { name: 'seed', value: { kind: 'oneOf', options: [{ kind: 'integer' }, { kind: 'string', enum: ['auto'] }] }, doc: 'A seed, or "auto".' },
      { name: 'background', value: { kind: 'string', enum: ['transparent', 'opaque', 'auto'] }, doc: 'Background: transparent, opaque or auto.' },
      { name: 'output_format', value: { kind: 'string', enum: ['png', 'jpeg', 'webp'] }, doc: 'Image file format.' },
      retired('imgg_handle', '`imgg_handle` was renamed `model`.', 'model'),
      retired('nb_output', '`nb_output` is retired: write the count in the output, e.g. `output = "Image[3]"`.'),
      retired('nb_steps', '`nb_steps` moved into the model setting table: `model = { model = "...", nb_steps = 30 }`.'),
      retired('guidance_scale', '`guidance_scale` moved into the model setting table.'),
    ],
    rules: [],
    modelCategory: 'img_gen',
    inputRule: 'templates-both-ways',
    outputMultiplicity: 'any',
    standard: true,
    snippet: 'type = "PipeImgGen"\ndescription = "${1:What it does}"\ninputs = { ${2:subject} = "Text" }\noutput = "Image"\nprompt = "${3:A watercolor of \\$${2:subject}}"',
  },
  {
    name: 'PipeExtract',
    kind: 'operator',
    doc: 'Extracts the pages (text and images) of one Document or Image input.',
    fields: [
      ...common,
      modelField(EXTRACT_SETTING, 'The extraction model: a reference string or an extraction setting table.'),
      { name: 'max_page_images', value: { kind: 'integer', min: 0 }, doc: 'Maximum number of images extracted per page.' },
      { name: 'page_image_captions', value: { kind: 'boolean' }, doc: 'Caption the extracted images.' },
      { name: 'page_views', value: { kind: 'boolean' }, doc: 'Render an image of each page.' },
      { name: 'page_views_dpi', value: { kind: 'integer', min: 1 }, doc: 'Resolution of the page views.' },
      { name: 'render_js', value: { kind: 'boolean' }, doc: 'Web pages only: run JavaScript before extracting.' },
      { name: 'include_raw_html', value: { kind: 'boolean' }, doc: 'Web pages only: keep the raw HTML.' },
      retired('ocr_platform', '`ocr_platform` is retired: choose the extraction model with `model`.', 'model'),
      retired('page_images', '`page_images` is retired: use `max_page_images`.', 'max_page_images'),
    ],
    rules: [],
    modelCategory: 'extract',
    inputRule: 'declared-needs',
    outputMultiplicity: 'list',
    standard: true,
    snippet: 'type = "PipeExtract"\ndescription = "${1:What it does}"\ninputs = { ${2:document} = "Document" }\noutput = "Page[]"',
  },
  {
    name: 'PipeSearch',
    kind: 'operator',
    doc: 'Searches the web and answers with sources.',
    fields: [
      ...common,
      { name: 'prompt', required: true, value: template('llm_prompt'), doc: 'The search query (template).' },
      modelField(SEARCH_SETTING, 'The search model: a reference string or a search setting table.'),
      { name: 'include_images', value: { kind: 'boolean' }, doc: 'Include images in the results.' },
      { name: 'max_results', value: { kind: 'integer', min: 1 }, doc: 'Maximum number of results.' },
      { name: 'from_date', value: isoDate, doc: 'Only results from this date on (YYYY-MM-DD).' },
      { name: 'to_date', value: isoDate, doc: 'Only results up to this date (YYYY-MM-DD).' },
      { name: 'include_domains', value: { kind: 'array', items: { kind: 'string' } }, doc: 'Only search these domains.' },
      { name: 'exclude_domains', value: { kind: 'array', items: { kind: 'string' } }, doc: 'Never search these domains.' },
    ],
    rules: [],
    modelCategory: 'search',
    inputRule: 'templates-both-ways',
    outputMultiplicity: 'single',
    standard: true,
    snippet: 'type = "PipeSearch"\ndescription = "${1:What it does}"\ninputs = { ${2:topic} = "Text" }\noutput = "SearchResult"\nprompt = "${3:Latest news about \\$${2:topic}}"',
  },
  {
    name: 'PipeJudge',
    kind: 'operator',
    doc: 'Asks a model a closed question about the evidence in `prompt`: yes/no (YesNo), a choice among options (Choice) or a rating on levels (Rating); `questions` asks several at once into a structured output.',
    fields: [
      ...common,
      { name: 'prompt', value: template('llm_prompt'), doc: 'The evidence the question is about (template, rendered like a PipeLLM prompt).' },
      { name: 'question', value: template('basic'), doc: 'The single closed question (template).' },
      { name: 'questions', value: { kind: 'map', name: 'questions', values: judgeQuestionTable, minEntries: 1 }, doc: 'Several questions, keyed by the output field that receives each verdict.' },
      modelField(JUDGMENT_SETTING, 'The judgment model: a reference string or `{ model, description }`.'),
      ...judgeQuestionFields,
    ],
    rules: [{ rule: 'exactlyOne', keys: ['question', 'questions'] }, ...judgeQuestionRules],
    modelCategory: 'judgment',
    inputRule: 'templates-both-ways',
    outputMultiplicity: 'single',
    standard: true,
    snippet: 'type = "PipeJudge"\ndescription = "${1:What it judges}"\ninputs = { ${2:message} = "Text" }\noutput = "YesNo"\nprompt = """\n@${2:message}\n"""\nquestion = "${3:Does this need an answer today?}"',
  },
  {
    name: 'PipeCompose',
    kind: 'operator',
    doc: 'Composes the output without a model: renders a template (Text or Html), or constructs a structured value from working memory.',
    fields: [
      ...common,
      { name: 'template', value: { kind: 'oneOf', options: [template('basic'), composeTemplateTable] }, doc: 'A Jinja2 template, or `{ template, category, templating_style?, extra_context? }`.' },
      { name: 'construct', value: { kind: 'custom', name: 'construct' }, doc: 'Field by field construction: fixed values, `{ from = "path" }`, `{ template = "..." }` or nested tables.' },
      retired('jinja2', '`jinja2` was renamed `template`.', 'template'),
      retired('template_category', '`template_category` moved into the template table: `template = { template = "...", category = "..." }`.'),
      retired('prompting_style', '`prompting_style` was replaced by `templating_style` in the template table.'),
    ],
    rules: [{ rule: 'exactlyOne', keys: ['template', 'construct'] }],
    inputRule: 'templates-both-ways',
    outputMultiplicity: 'single',
    standard: true,
    snippet: 'type = "PipeCompose"\ndescription = "${1:What it composes}"\ninputs = { ${2:name} = "Text" }\noutput = "Text"\ntemplate = "${3:Hello \\$${2:name}}"',
  },
  {
    name: 'PipeDocGen',
    kind: 'operator',
    doc: 'Generates a document file (pdf, xlsx, docx, pptx) from a template or an automatic layout of the inputs. An extension of the reference runtime, not part of the standard.',
    fields: [
      ...common,
      { name: 'format', required: true, value: { kind: 'string', enum: ['pdf', 'xlsx', 'docx', 'pptx'] }, doc: 'The file format.' },
      { name: 'model', value: { kind: 'string', nonEmpty: true, role: 'model-ref' }, doc: 'The document engine (e.g. `weasyprint-pdf`); defaults to the deck default for the format.' },
      { name: 'template', value: template('html'), doc: 'Inline HTML + Jinja2 template (pdf only).' },
      { name: 'template_file', value: { kind: 'string', nonEmpty: true, role: 'file' }, doc: 'A template file, relative to the bundle (required for pptx).' },
      { name: 'filename', value: template('basic'), doc: 'The output file name (template; the suffix is added).' },
    ],
    rules: [{ rule: 'atMostOne', keys: ['template', 'template_file'] }],
    modelCategory: 'doc_gen',
    inputRule: 'templates-read-declared',
    outputMultiplicity: 'single',
    standard: false,
    snippet: 'type = "PipeDocGen"\ndescription = "${1:What it generates}"\ninputs = { ${2:report} = "Text" }\noutput = "Document"\nformat = "${3|pdf,xlsx,docx,pptx|}"',
  },
  {
    name: 'PipeSequence',
    kind: 'controller',
    doc: 'Runs steps in order on one working memory; each step stores its output under `result`. Binding steps (`{ from, result }`) copy a value at a path.',
    fields: [...common, { name: 'steps', required: true, value: stepsArray, doc: 'The steps: `{ pipe = "x", result = "y" }` or binding steps `{ from = "a.b", result = "c" }`.' }],
    rules: [],
    inputRule: 'controller',
    outputMultiplicity: 'any',
    standard: true,
    snippet: 'type = "PipeSequence"\ndescription = "${1:What it does}"\ninputs = { ${2:text} = "Text" }\noutput = "${3:Text}"\nsteps = [\n  { pipe = "${4:first_step}", result = "${5:result}" },\n]',
  },
  {
    name: 'PipeParallel',
    kind: 'controller',
    doc: 'Runs branches concurrently on copies of the working memory and combines their results into a Composite or structured output.',
    fields: [
      ...common,
      { name: 'branches', required: true, value: stepsArray, doc: 'The branches: `{ pipe = "x", result = "y" }`.' },
      { name: 'add_each_output', value: { kind: 'boolean' }, doc: 'Also store each branch output under its `result` name (default false); the branches are combined into `output` either way.' },
      retired('parallels', '`parallels` was renamed `branches`.', 'branches'),
      retired('combined_output', '`combined_output` is retired: declare the combined concept as `output` (Composite or a structured concept).', 'output'),
    ],
    rules: [],
    inputRule: 'controller',
    outputMultiplicity: 'single',
    standard: true,
    snippet: 'type = "PipeParallel"\ndescription = "${1:What it does}"\ninputs = { ${2:text} = "Text" }\noutput = "Composite"\nbranches = [\n  { pipe = "${3:branch_a}", result = "${4:a}" },\n  { pipe = "${5:branch_b}", result = "${6:b}" },\n]',
  },
  {
    name: 'PipeCondition',
    kind: 'controller',
    doc: 'Renders an expression and runs the pipe its outcome names (`fail` stops the run, `continue` goes on without an output).',
    fields: [
      ...common,
      { name: 'expression', value: { kind: 'string', role: 'expression', category: 'expression', shorthands: false }, doc: 'A Jinja2 expression (wrapped in `{{ }}`), e.g. `category.label`.' },
      { name: 'expression_template', value: template('expression', false), doc: 'A full Jinja2 template producing the outcome string.' },
      { name: 'outcomes', required: true, value: { kind: 'map', name: 'outcomes', values: { kind: 'string', role: 'pipe-ref', nonEmpty: true }, minEntries: 1 }, doc: 'Outcome string to the pipe to run (or `fail` / `continue`).' },
      { name: 'default_outcome', required: true, value: { kind: 'string', role: 'pipe-ref', nonEmpty: true }, doc: 'The pipe to run when no outcome matches (or `fail` / `continue`).' },
      { name: 'add_alias_from_expression_to', value: { kind: 'string', pattern: SNAKE, patternName: 'snake_case' }, doc: 'Register the rendered expression as an alias of the stuff with this name.' },
      retired('pipe_map', '`pipe_map` was renamed `outcomes`.', 'outcomes'),
      retired('default_pipe_code', '`default_pipe_code` was renamed `default_outcome`.', 'default_outcome'),
    ],
    rules: [{ rule: 'exactlyOne', keys: ['expression', 'expression_template'] }],
    inputRule: 'controller',
    outputMultiplicity: 'any',
    standard: true,
    // `fail` by default: a condition that can `continue` must declare an optional output (§5.12).
    snippet: 'type = "PipeCondition"\ndescription = "${1:What it decides}"\ninputs = { ${2:category} = "${3:Category}" }\noutput = "${4:Text}"\nexpression = "${5:category.label}"\noutcomes = { ${6:urgent} = "${7:handle_urgent}" }\ndefault_outcome = "${8:fail}"',
  },
  {
    name: 'PipeBatch',
    kind: 'controller',
    doc: 'Runs a branch pipe once per item of a list input and collects the outputs into a list.',
    fields: [
      ...common,
      { name: 'branch_pipe_code', required: true, value: { kind: 'string', role: 'pipe-ref', nonEmpty: true }, doc: 'The pipe run for each item.' },
      { name: 'input_list_name', required: true, value: { kind: 'string', role: 'input-name' }, doc: 'The list input to iterate over (a key of `inputs`).' },
      { name: 'input_item_name', required: true, value: { kind: 'string', role: 'stored-name', nonEmpty: true }, doc: 'The name each item takes in the branch pipe (one of its inputs).' },
    ],
    rules: [],
    inputRule: 'controller',
    outputMultiplicity: 'list',
    standard: true,
    snippet: 'type = "PipeBatch"\ndescription = "${1:What it does}"\ninputs = { ${2:items} = "${3:Text}[]" }\noutput = "${4:Text}[]"\nbranch_pipe_code = "${5:process_item}"\ninput_list_name = "${2:items}"\ninput_item_name = "${6:item}"',
  },
];

/** Pipe types of earlier generations: recognised so they get a migration message. */
export const RETIRED_PIPE_TYPES: Readonly<Record<string, string>> = {
  PipeSignature: '`PipeSignature` is no longer a pipe type: delete the `type` line (a pipe without `type` is a signature).',
  PipeJinja2: '`PipeJinja2` is retired: use `type = "PipeCompose"` with `template`.',
  PipeOcr: '`PipeOcr` is retired: use `type = "PipeExtract"` and choose the model with `model`.',
  PipeLLMPrompt: '`PipeLLMPrompt` is retired: use a PipeCompose with a template, or write the prompt in the PipeLLM.',
};

/** The keys a typeless section (a signature) may hold. */
export const SIGNATURE_FIELDS: readonly FieldSpec[] = [
  common[1]!,
  common[2]!,
  common[3]!,
  {
    name: 'signature_for',
    value: { kind: 'string', enum: PIPE_TYPES.filter((p) => p.standard).map((p) => p.name) },
    doc: 'The pipe type intended to implement this signature (a hint).',
  },
];

const BY_NAME = new Map<string, PipeTypeSpec>(PIPE_TYPES.map((p) => [p.name, p]));

export function getPipeType(name: string): PipeTypeSpec | undefined {
  return BY_NAME.get(name);
}

/** The spec of a field of a pipe type (or of a signature when `type` is undefined). */
export function getPipeField(type: PipeTypeSpec | undefined, name: string): FieldSpec | undefined {
  const fields = type ? type.fields : SIGNATURE_FIELDS;
  return fields.find((f) => f.name === name);
}
