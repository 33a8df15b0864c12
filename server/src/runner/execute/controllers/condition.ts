// PipeCondition (language reference §7.7): the expression is rendered against the working memory
// and looked up verbatim among the outcomes (else default_outcome). `fail` stops the run, `continue`
// leaves the output absent, a pipe runs on the same memory. `add_alias_from_expression_to` follows
// the reference runtime: the rendered string becomes an alias of the named stuff.

import { renderExpression, renderTemplate, TemplateError } from '../../../language/templates/render.js';
import { fieldPath, Refusal } from '../../refusal.js';
import { templateView } from '../contents.js';
import { childPipe, failure, runPipe, setting, stringSetting, type PipeRunner } from '../engine.js';

export const runPipeCondition: PipeRunner = async (ctx, pipe, memory, inv) => {
  const context: Record<string, unknown> = {};
  for (const [name, stuff] of memory.root) context[name] = templateView(ctx.catalog, stuff, name);
  for (const [alias, target] of memory.aliases) {
    const stuff = memory.root.get(target);
    if (stuff && !(alias in context)) context[alias] = templateView(ctx.catalog, stuff, target);
  }
  const expression = stringSetting(pipe, 'expression');
  const template = stringSetting(pipe, 'expression_template');
  let rendered: string;
  try {
    if (expression !== undefined) rendered = renderExpression(expression, context);
    else if (template !== undefined) rendered = renderTemplate(template, context, { category: 'expression', shorthands: false }).text;
    else throw failure(pipe, 'it has neither an expression nor an expression_template');
  } catch (error) {
    if (error instanceof TemplateError) {
      throw new Refusal('mthdsls.pipe.template_render_failed', { pipe: pipe.code, template: expression !== undefined ? 'expression' : 'expression_template', finding: error.message });
    }
    throw error;
  }
  if (rendered === '' || rendered === 'None') throw new Refusal('mthdsls.pipe.condition_no_result', { pipe: pipe.code });
  const outcomes = setting(pipe, 'outcomes');
  const table = outcomes && typeof outcomes === 'object' && !Array.isArray(outcomes) ? (outcomes as Record<string, unknown>) : {};
  const matched = Object.hasOwn(table, rendered);
  const chosen = matched ? table[rendered] : setting(pipe, 'default_outcome');
  const aliasTarget = stringSetting(pipe, 'add_alias_from_expression_to');
  if (aliasTarget) memory.aliases.set(rendered, aliasTarget);
  if (typeof chosen !== 'string') throw failure(pipe, 'its outcome names no pipe');
  if (chosen === 'fail') throw new Refusal('mthdsls.pipe.condition_failed', { pipe: pipe.code, outcome: matched ? fieldPath(rendered) : 'default_outcome' });
  if (chosen === 'continue') return undefined;
  const site = pipe.pipeRefs.find((s) => (matched ? s.context === 'outcome' : s.context === 'default_outcome') && s.raw === chosen);
  const child = childPipe(ctx, pipe, site);
  const next = { path: `${inv.path}/outcome.${matched ? rendered.slice(0, 64) : 'default'}`, depth: inv.depth + 1, ...(inv.multiplicity ? { multiplicity: inv.multiplicity } : {}) };
  return runPipe(ctx, child, memory, next);
};
