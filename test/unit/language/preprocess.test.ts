import { describe, expect, it } from 'vitest';
import { preprocessShorthands } from '../../../server/src/language/templates/preprocess.js';

describe('preprocessShorthands', () => {
  it('rewrites $var inline with the reference rules', () => {
    expect(preprocessShorthands('Hi $user.name. Costs $100, micro$oft, $x (shell) and $user\'s').jinja).toBe(
      'Hi {{ user.name|format() }}. Costs $100, micro$oft, $x (shell) and {{ user|format() }}\'s',
    );
  });
  it('rewrites @var and @?var alone on their line, keeping the padding', () => {
    const out = preprocessShorthands('Doc:\n  @doc.summary \n@?note\r\nend');
    expect(out.jinja).toBe('Doc:\n  {{ doc.summary|tag("doc.summary") }} \n{% if note %}{{ note|tag("note") }}{% endif %}\r\nend');
    expect(out.uses.map((u) => [u.sigil, u.path, u.start, u.end])).toEqual([
      ['@', 'doc.summary', 7, 19],
      ['@?', 'note', 21, 27],
    ]);
  });
  it('keeps escapes literal and maps every output offset back to the template', () => {
    const template = 'Mail @@me $$5 for $item';
    const out = preprocessShorthands(template);
    expect(out.jinja).toBe('Mail @me $5 for {{ item|format() }}');
    const at = out.jinja.indexOf('for');
    expect(template.slice(out.sourceOffsets[at], out.sourceOffsets[at]! + 3)).toBe('for');
    expect(out.sourceOffsets[out.jinja.indexOf('{{')]).toBe(template.indexOf('$item'));
    expect(out.sourceOffsets[out.jinja.length]).toBe(template.length);
  });
  it('leaves inline @ untouched (the checker reports it)', () => {
    expect(preprocessShorthands('see @doc now').jinja).toBe('see @doc now');
  });
});
