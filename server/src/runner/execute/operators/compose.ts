// PipeCompose (language reference §5.8): a template rendered into a Text or Html output, or a
// structured output constructed field by field (fixed values, `{ from = "path" }` copies,
// `{ template = "..." }` renderings, nested tables), then checked against the output concept.

import { nativeBase, type ConceptInfo } from '../../../language/jsonSchema.js';
import { coerceToField } from '../contents.js';
import type { PipeDecl } from '../../../language/model.js';
import type { TemplateCategory } from '../../../language/spec/values.js';
import { finishOutput, failure, setting, templateContext, type RunContext, type PipeRunner } from '../engine.js';
import type { WorkingMemory } from '../memory.js';
import { rawAt } from '../paths.js';
import { render, styleOf } from './templates.js';

const CATEGORIES: readonly TemplateCategory[] = ['basic', 'expression', 'html', 'markdown', 'mermaid', 'llm_prompt', 'img_gen_prompt'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function construct(ctx: RunContext, pipe: PipeDecl, memory: WorkingMemory, spec: Record<string, unknown>, info: ConceptInfo | undefined, context: Record<string, unknown>, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(spec)) {
    const field = info?.shape === 'structured' ? info.fields.find((f) => f.name === name) : undefined;
    const here = where ? `${where}.${name}` : name;
    if (isRecord(value) && typeof value['from'] === 'string') {
      let v = rawAt(memory, value['from']);
      const key = value['list_to_dict_keyed_by'];
      if (typeof key === 'string') {
        if (!Array.isArray(v)) throw failure(pipe, `construct field ${here} keys a value that is not a list`);
        v = Object.fromEntries(v.filter(isRecord).map((item) => [String(item[key]), item]));
      }
      if (v !== undefined) out[name] = coerceToField(ctx.catalog, v, field);
    } else if (isRecord(value) && typeof value['template'] === 'string') {
      out[name] = coerceToField(ctx.catalog, render(pipe, `construct.${here}`, value['template'], context, 'basic').text, field);
    } else if (isRecord(value)) {
      const nested = field?.type === 'concept' && field.concept ? ctx.catalog.byRef(field.concept) : undefined;
      out[name] = construct(ctx, pipe, memory, value, nested, context, here);
    } else out[name] = value;
  }
  return out;
}

export const runPipeCompose: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const context = templateContext(ctx, pipe, memory, inv);
  const spec = setting(pipe, 'construct');
  if (isRecord(spec)) return finishOutput(ctx, pipe, target, [construct(ctx, pipe, memory, spec, target.info, context, '')]);
  const raw = setting(pipe, 'template');
  let source: string;
  let category: TemplateCategory = 'basic';
  let styleRaw: unknown;
  if (typeof raw === 'string') source = raw;
  else if (isRecord(raw) && typeof raw['template'] === 'string') {
    source = raw['template'];
    if (typeof raw['category'] === 'string' && (CATEGORIES as readonly string[]).includes(raw['category'])) category = raw['category'] as TemplateCategory;
    styleRaw = raw['templating_style'];
    if (isRecord(raw['extra_context'])) for (const [k, v] of Object.entries(raw['extra_context'])) if (!(k in context)) context[k] = v;
  } else throw failure(pipe, 'it has neither a template nor a construct');
  const text = render(pipe, 'template', source, context, category, { style: styleOf(styleRaw, category) }).text;
  const html = nativeBase(target.info)?.code === 'Html';
  return finishOutput(ctx, pipe, target, [html ? { inner_html: text } : { text }]);
};

