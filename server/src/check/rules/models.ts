// method.model_setting_invalid for model reference strings: `$preset`, `@alias`, `~waterfall`,
// a handle, or the namespaced spellings; a sigil or namespace with no name does not parse (§8).

import type { Bundle } from '../../language/model.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LValue } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

const NAMESPACES = ['preset:', 'alias:', 'waterfall:', 'handle:'];
const WHITE_SPACE = /\s/;

/** Why a model reference does not parse, or undefined when it does. */
export function modelReferenceFault(reference: string): string | undefined {
  const text = reference.trim();
  if (text === '') return 'the model reference is empty';
  if (text === '$' || text === '@' || text === '~') return `\`${text}\` names no model after its sigil`;
  let ns: string | undefined;
  for (const n of NAMESPACES) {
    if (text.startsWith(n)) {
      ns = n;
      break;
    }
  }
  if (ns && text.slice(ns.length).trim() === '') return `\`${text}\` names no model after \`${ns}\``;
  if (WHITE_SPACE.test(text)) return 'a model reference holds no white space';
  return undefined;
}

const MODEL_KEYS = ['model', 'model_to_structure'];

export function checkModelReferences(ctx: CheckContext, bundle: Bundle): void {
  for (const pipe of bundle.pipes) {
    for (const key of MODEL_KEYS) {
      const value = getEntry(pipe.table, key)?.value;
      checkModel(ctx, bundle, value, pipe.code, key, '');
      if (value?.type === 'table') checkModel(ctx, bundle, getEntry(value, 'model')?.value, pipe.code, key, '.model');
    }
  }
}

function checkModel(ctx: CheckContext, bundle: Bundle, node: LValue | undefined, pipe: string, key: string, suffix: string): void {
  if (node?.type !== 'string') return;
  const fault = modelReferenceFault(node.value);
  if (fault) ctx.out.push(makeFinding('method.model_setting_invalid', { field: `pipe.${pipe}.${key}${suffix}`, finding: fault }, bundle.file, node.range));
}
