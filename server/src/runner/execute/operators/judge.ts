// PipeJudge (language reference §5.7, newest form): the rendered `prompt` is the evidence, the
// question(s) closed: yes/no (YesNo), a choice among options (Choice) or a rating on levels
// (Rating); `questions` asks several at once, one output field per question. The verdict schema is
// built per call, so the model (or the mock) can only answer with a declared option or level.

import type { JsonSchema } from '../../../language/jsonSchema.js';
import type { PipeDecl } from '../../../language/model.js';
import { Refusal } from '../../refusal.js';
import { callSeed, finishOutput, modelFor, setting, stringSetting, templateContext, type PipeRunner } from '../engine.js';
import { attachmentsOf, render, styleOf } from './templates.js';

interface Question {
  name?: string;
  text: string;
  options?: Record<string, string>;
  levels?: Array<{ label?: string; description?: string }>;
  criteria?: { yes?: string; no?: string };
  threshold?: number;
}

function levelsOf(raw: unknown): Question['levels'] {
  if (!Array.isArray(raw)) return undefined;
  return raw.map((l) => (typeof l === 'string' ? { description: l } : l && typeof l === 'object' ? (l as { label?: string; description?: string }) : {}));
}

function questionOf(raw: Record<string, unknown>, text: string, name?: string): Question {
  const q: Question = { text };
  if (name !== undefined) q.name = name;
  if (raw['options'] && typeof raw['options'] === 'object') q.options = raw['options'] as Record<string, string>;
  const levels = levelsOf(raw['levels']);
  if (levels) q.levels = levels;
  if (raw['criteria'] && typeof raw['criteria'] === 'object') q.criteria = raw['criteria'] as Question['criteria'] & object;
  if (typeof raw['threshold'] === 'number') q.threshold = raw['threshold'];
  return q;
}

function verdictSchema(q: Question): JsonSchema {
  if (q.options) return { type: 'object', properties: { choice: { type: 'string', enum: Object.keys(q.options) } }, required: ['choice'], additionalProperties: false };
  if (q.levels) {
    const props: Record<string, JsonSchema> = { level: { type: 'integer', minimum: 0, maximum: q.levels.length - 1 } };
    return { type: 'object', properties: props, required: ['level'], additionalProperties: false };
  }
  return { type: 'object', properties: { yes_no: { type: 'boolean' } }, required: ['yes_no'], additionalProperties: false };
}

function describe(q: Question): string {
  const lines = [q.name ? `Question "${q.name}": ${q.text}` : `Question: ${q.text}`];
  if (q.options) lines.push('Answer with one option key:', ...Object.entries(q.options).map(([k, d]) => `- ${k}${d ? `: ${d}` : ''}`));
  else if (q.levels) lines.push('Answer with the 0-based index of one level, lowest first:', ...q.levels.map((l, i) => `- ${i}: ${[l.label, l.description].filter(Boolean).join(': ')}`));
  else {
    lines.push('Answer yes or no.');
    if (q.criteria?.yes) lines.push(`Yes when: ${q.criteria.yes}`);
    if (q.criteria?.no) lines.push(`No when: ${q.criteria.no}`);
  }
  return lines.join('\n');
}

/** The verdict content: labelled ratings carry their label; a reported probability meets the threshold. */
function finishVerdict(q: Question, answer: unknown): unknown {
  if (!answer || typeof answer !== 'object') return answer;
  const v = { ...(answer as Record<string, unknown>) };
  if (q.levels && typeof v['level'] === 'number') {
    const label = q.levels[v['level']]?.label;
    if (label) v['label'] = label;
  }
  if (!q.options && !q.levels && typeof v['probability'] === 'number') v['yes_no'] = v['probability'] > (q.threshold ?? 0.5);
  return v;
}

function questionsOf(pipe: PipeDecl, context: Record<string, unknown>, style: ReturnType<typeof styleOf>): Question[] {
  const single = stringSetting(pipe, 'question');
  if (single !== undefined) {
    const text = render(pipe, 'question', single, context, 'basic', { style }).text;
    const raw: Record<string, unknown> = {};
    for (const key of ['options', 'levels', 'criteria', 'threshold']) raw[key] = setting(pipe, key);
    return [questionOf(raw, text)];
  }
  const many = setting(pipe, 'questions');
  if (!many || typeof many !== 'object' || Array.isArray(many)) {
    throw new Refusal('mthdsls.pipe.execution_failed', { pipe: pipe.code, finding: 'it asks no question (question or questions)' });
  }
  return Object.entries(many as Record<string, Record<string, unknown>>).map(([name, raw]) =>
    questionOf(raw, render(pipe, `questions.${name}.question`, String(raw['question'] ?? ''), context, 'basic', { style }).text, name),
  );
}

export const runPipeJudge: PipeRunner = async (ctx, pipe, memory, inv, target) => {
  const context = templateContext(ctx, pipe, memory, inv);
  const style = styleOf(setting(pipe, 'templating_style'), 'llm_prompt');
  const promptSource = stringSetting(pipe, 'prompt');
  const evidence = promptSource !== undefined ? render(pipe, 'prompt', promptSource, context, 'llm_prompt', { style }) : { text: '', images: [] };
  const questions = questionsOf(pipe, context, styleOf(undefined, 'basic'));
  const multi = stringSetting(pipe, 'question') === undefined;
  const schema: JsonSchema = multi
    ? { type: 'object', properties: Object.fromEntries(questions.map((q) => [q.name!, verdictSchema(q)])), required: questions.map((q) => q.name!), additionalProperties: false }
    : verdictSchema(questions[0]!);
  const { model, provider, settings } = modelFor(ctx, pipe, 'llm');
  const prompt = [evidence.text ? `Evidence:\n${evidence.text}` : '', ...questions.map(describe)].filter((s) => s !== '').join('\n\n');
  const answer = await provider.generateObject({
    model,
    settings,
    seed: callSeed(ctx, inv),
    signal: ctx.signal,
    system: 'You judge the evidence and answer each closed question with one of the allowed answers only.',
    prompt,
    attachments: attachmentsOf(evidence.images),
    schema,
    schemaName: multi ? 'verdicts' : 'verdict',
  });
  const verdict = multi && answer && typeof answer === 'object'
    ? Object.fromEntries(questions.map((q) => [q.name!, finishVerdict(q, (answer as Record<string, unknown>)[q.name!])]))
    : finishVerdict(questions[0]!, answer);
  return finishOutput(ctx, pipe, target, [verdict]);
};
