import { describe, expect, it } from 'vitest';
import { applyEdits, formatEdits, formatText } from '../../../server/src/format/index.js';
import { diffLines, splitLines } from '../../../server/src/format/diff.js';

function fmt(text: string, options = {}): string {
  const r = formatText(text, options);
  if (!r.ok) throw new Error(r.reason);
  return r.text;
}

describe('house style', () => {
  it('aligns `=` within a block, one blank line between tables, final newline', () => {
    const input = 'domain="x"\ndescription   =  "d"\n[concept.A]\ndescription="a"\n\n\n\n[pipe.p]   \ntype="PipeLLM"\nlong_key_name = 1\n\noutput="A"';
    expect(fmt(input)).toBe(
      'domain      = "x"\ndescription = "d"\n\n[concept.A]\ndescription = "a"\n\n[pipe.p]\ntype          = "PipeLLM"\nlong_key_name = 1\n\noutput = "A"\n',
    );
  });

  it('aligns a key that follows a comment line with the keys of its block; a blank line still ends it', () => {
    expect(fmt('[pipe.p]\ntype = "PipeLLM"\n# what it does\ndescription = "d"\noutput = "Text"\n\nprompt = "hi"\n')).toBe(
      '[pipe.p]\ntype        = "PipeLLM"\n# what it does\ndescription = "d"\noutput      = "Text"\n\nprompt = "hi"\n',
    );
    // Sorting keeps a comment with the key below it: the comment still ends a sorted block.
    expect(fmt('b = 1\n# about a\na = 2\n', { reorderKeys: true })).toBe('b = 1\n# about a\na = 2\n');
  });

  it('spaces inline tables and arrays consistently', () => {
    expect(fmt('a = {x=1,y = "2" ,  z=[1,2 ,3]}\nb = [ ]\nc = {}\nd = [ "a" , "b" ]\n')).toBe('a = { x = 1, y = "2", z = [1, 2, 3] }\nb = []\nc = {}\nd = ["a", "b"]\n');
  });

  it('lays out multi-line arrays one item a line with a trailing comma, comments kept', () => {
    const input = 'steps = [ # the steps\n      { pipe="a", result="x" },{ pipe = "b" }  # second\n  # last\n]\n';
    expect(fmt(input)).toBe('steps = [ # the steps\n  { pipe = "a", result = "x" },\n  { pipe = "b" }, # second\n  # last\n]\n');
    expect(fmt(input, { arrayTrailingComma: false, indentString: '    ' })).toBe('steps = [ # the steps\n    { pipe = "a", result = "x" },\n    { pipe = "b" } # second\n    # last\n]\n');
  });

  it('never touches multi-line strings, and keeps comments above their table', () => {
    const input = 'a = 1\n# About p\n[pipe.p]\nprompt   = """\n  Hello   \n\n\n   @x   \n"""\nlit = \'\'\'\n  raw\\   \n\'\'\'\n';
    expect(fmt(input)).toBe('a = 1\n\n# About p\n[pipe.p]\nprompt = """\n  Hello   \n\n\n   @x   \n"""\nlit    = \'\'\'\n  raw\\   \n\'\'\'\n');
  });

  it('keeps CRLF documents CRLF and removes trailing blanks', () => {
    const input = 'a = 1   \r\nbb = "x" # c   \r\n[t]\r\nk = """\r\nline  \r\n"""\r\n';
    expect(fmt(input)).toBe('a  = 1\r\nbb = "x" # c\r\n\r\n[t]\r\nk = """\r\nline  \r\n"""\r\n');
  });

  it('respects alignEntries and reorderKeys', () => {
    expect(fmt('a = 1\nlong = 2\n', { alignEntries: false })).toBe('a = 1\nlong = 2\n');
    expect(fmt('zeta = 1\nalpha = 2\n\nb.c = 1\na = 2\n', { reorderKeys: true, alignEntries: false })).toBe('alpha = 2\nzeta = 1\n\nb.c = 1\na = 2\n');
  });

  it('is idempotent and keeps dotted keys and quoted keys as written', () => {
    const input = '"quoted key" = 1\na . b = 2\n[ x . "y z" ]\n[[ arr ]]\nk = { a.b = 1, "c" = 2 }\n';
    const once = fmt(input);
    expect(once).toBe('"quoted key" = 1\na.b          = 2\n\n[x."y z"]\n\n[[arr]]\nk = { a.b = 1, "c" = 2 }\n');
    expect(fmt(once)).toBe(once);
  });

  it('refuses documents with syntax errors', () => {
    const r = formatText('a = "unterminated\n[t]\nb=1\n');
    expect(r.ok).toBe(false);
    expect(formatEdits('a = \n').ok).toBe(false);
  });
});

describe('edits', () => {
  it('formats with small line edits, and a range only touches its lines', () => {
    const text = 'a=1\nbb=2\n\n[t]\nx=1\nyy=2\n';
    const all = formatEdits(text);
    expect(all.ok && applyEdits(text, all.edits)).toBe('a  = 1\nbb = 2\n\n[t]\nx  = 1\nyy = 2\n');
    const start = text.indexOf('x=1');
    const partial = formatEdits(text, {}, { start, end: start + 3 });
    // The changed block the range touches (its alignment goes with it), nothing above.
    expect(partial.ok && applyEdits(text, partial.edits)).toBe('a=1\nbb=2\n\n[t]\nx  = 1\nyy = 2\n');
  });

  it('diffs lines into hunks', () => {
    const a = splitLines('1\n2\n3\n4\n');
    const b = splitLines('1\n2b\n3\n4\n5\n');
    expect(diffLines(a, b)).toEqual([
      { start: 1, end: 2, lines: ['2b\n'] },
      { start: 4, end: 4, lines: ['5\n'] },
    ]);
  });
});
