// makeFinding is typed by registry code: a real code renders its registry detail and severity,
// a misspelt code is a compile error (checked by `npm run typecheck`, which covers test/).

import { describe, expect, it } from 'vitest';
import { makeFinding } from '../../../server/src/check/finding.js';

describe('makeFinding', () => {
  it('renders the registry detail and takes the severity the registry raises the code as', () => {
    const error = makeFinding('method.pipe_unresolved', { pipe: 'summarize', suggestions: [] }, 'main.mthds', { start: 1, end: 4 });
    expect(error.severity).toBe('error');
    expect(error.message).toContain('summarize');
    const warning = makeFinding('method.hint_invalid', { reason: 'unknown_key', hint: 'x' }, 'main.mthds', { start: 0, end: 0 });
    expect(warning.severity).toBe('warning');
  });

  it('refuses a misspelt code at compile time', () => {
    // @ts-expect-error: not a registry code (and at run time the registry refuses it too)
    expect(() => makeFinding('method.pipe_unresolvd', {}, 'main.mthds', { start: 0, end: 0 })).toThrow(/unknown error code/);
  });
});
