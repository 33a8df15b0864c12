// method.model_setting_invalid for model reference strings: `$preset`, `@alias`, `~waterfall`,
// a handle, or the namespaced spellings; a sigil or namespace with no name does not parse (§8).

import type { Bundle } from '../../language/model.js';
import { getEntry } from '../../syntax/lookup.js';
import type { LValue } from '../../syntax/types.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

const NAMESPACES = ['preset:', 'alias:', 'waterfall:', 'handle:'];

/** Why a model reference does not parse, or undefined when it does. */
export function modelReferenceFault(reference: string): string | undefined {
  const text = reference.trim();
  if (text === '') return 'the model reference is empty';
  if (text === '$' || text === '@' || text === '~') return `\`${text}\` names no model after its sigil`;
  const ns = NAMESPACES.find((n) => text.startsWith(n));
  if (ns && text.slice(ns.length).trim() === '') return `\`${text}\` names no model after \`${ns}\``;
  if (/\s/.test(text)) return 'a model reference holds no white space';
  return undefined;
}

export function checkModelReferences(ctx: CheckContext, bundle: Bundle): void {
  for (const pipe of bundle.pipes) {
    for (const key of ['model', 'model_to_structure']) {
      const value = getEntry(pipe.table, key)?.value;
      const check = (node: LValue | undefined, field: string): void => {
        if (node?.type !== 'string') return;
        const fault = modelReferenceFault(node.value);
        if (fault) ctx.out.push(makeFinding('method.model_setting_invalid', { field, finding: fault }, bundle.file, node.range));
      };
      check(value, `pipe.${pipe.code}.${key}`);
      if (value?.type === 'table') check(getEntry(value, 'model')?.value, `pipe.${pipe.code}.${key}.model`);
    }
  }
}
