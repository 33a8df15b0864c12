// method.identifier_invalid: pipe codes, main pipes, input names and stored names.

import type { Bundle } from '../../language/model.js';
import { BOUND_PREFIX, SNAKE, toSnakeCase } from '../../language/spec/lexical.js';
import { getEntry } from '../../syntax/lookup.js';
import type { Range } from '../../syntax/types.js';
import { makeFinding, replaceFix, type Finding } from '../finding.js';

type Kind = 'pipe_code' | 'main_pipe' | 'input_name';

export function checkIdentifiers(bundle: Bundle, out: Finding[]): void {
  const report = (kind: Kind, name: string, range: Range, fixText?: string): void => {
    const fix = fixText !== undefined ? replaceFix(`Rename to \`${fixText}\``, bundle.file, range, fixText, false) : undefined;
    out.push(makeFinding('method.identifier_invalid', { identifier_kind: kind, name }, bundle.file, range, fix ? { fix } : {}));
  };
  if (bundle.mainPipe && !SNAKE.test(bundle.mainPipe.value)) {
    report('main_pipe', bundle.mainPipe.value, bundle.mainPipe.range, JSON.stringify(toSnakeCase(bundle.mainPipe.value)));
  }
  for (const pipe of bundle.pipes) {
    if (!SNAKE.test(pipe.code)) report('pipe_code', pipe.code, pipe.codeRange, toSnakeCase(pipe.code));
    for (const input of pipe.inputs) {
      if (SNAKE.test(input.name)) continue;
      // A dotted name: read the field through its root, or bind it with a binding step.
      const suggestion = input.name.includes('.') ? undefined : toSnakeCase(input.name);
      report('input_name', input.name, input.nameRange, suggestion);
    }
    for (const step of pipe.steps) {
      if (step.pipe && step.result && !SNAKE.test(step.result.value)) report('input_name', step.result.value, step.result.range);
      if (step.batchAs && !SNAKE.test(step.batchAs.value)) report('input_name', step.batchAs.value, step.batchAs.range);
      if (step.batchOver && !step.batchOver.value.includes('.') && step.batchOver.value.startsWith(BOUND_PREFIX)) {
        report('input_name', step.batchOver.value, step.batchOver.range);
      }
    }
    if (pipe.spec?.name === 'PipeBatch') {
      for (const key of ['input_list_name', 'input_item_name']) {
        const v = getEntry(pipe.table, key)?.value;
        if (v?.type === 'string' && v.value !== '' && !SNAKE.test(v.value)) report('input_name', v.value, v.range);
      }
    }
  }
}
