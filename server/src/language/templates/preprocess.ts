// The shorthand preprocessor: turns `$var`, `@var` and `@?var` into Jinja2, exactly as the
// reference runtime does (language reference §6.2), and keeps a map from each output offset back
// to the template offset it came from, so that Jinja findings land on the text the author wrote.

const PATH = String.raw`[a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)*`;
const DOLLAR = new RegExp(String.raw`(?<!\w)\$(${PATH})(?![a-zA-Z0-9_])(?![ \t]+[({"'])`, 'g');
const AT_LINE = new RegExp(String.raw`^([ \t]*)(@\??)(${PATH})([ \t]*)$`);

/** Sentinels standing for escaped `@@` and `$$` while rewriting (private-use characters). */
const AT_SENTINEL = '\uE000';
const DOLLAR_SENTINEL = '\uE001';

export interface ShorthandUse {
  sigil: '$' | '@' | '@?';
  path: string;
  /** Offsets of the sigil and path in the original template. */
  start: number;
  end: number;
}

export interface Preprocessed {
  /** The Jinja2 source. */
  jinja: string;
  /**
   * For each offset of `jinja` (and one past the end), the offset in the original template it
   * comes from. Text produced by a rewrite maps to the start of the shorthand it replaces.
   */
  sourceOffsets: Int32Array;
  uses: ShorthandUse[];
}

interface Piece {
  text: string;
  /** Template offset of the piece's first character; when `verbatim`, each character follows. */
  source: number;
  verbatim: boolean;
}

/**
 * Rewrites the shorthands. Line endings are kept as written (offsets stay exact); `\r\n` is only
 * treated as a line break for the line-bounded `@` rule.
 */
export function preprocessShorthands(template: string): Preprocessed {
  const uses: ShorthandUse[] = [];
  // Escapes become one sentinel each, but still cover two template characters.
  const pieces: Piece[] = [];
  scanLines(template, pieces, uses);
  let length = 0;
  for (const piece of pieces) length += piece.text.length;
  const sourceOffsets = new Int32Array(length + 1);
  let at = 0;
  let jinja = '';
  for (const piece of pieces) {
    const text = piece.text;
    jinja += text;
    if (piece.verbatim) for (let i = 0; i < text.length; i++) sourceOffsets[at++] = piece.source + i;
    else {
      sourceOffsets.fill(piece.source, at, at + text.length);
      at += text.length;
    }
  }
  sourceOffsets[length] = template.length;
  return { jinja, sourceOffsets, uses };
}

/** The shorthands of a template alone: what `preprocessShorthands` reports as `uses`, without the rewrite. */
export function shorthandUses(template: string): ShorthandUse[] {
  return collectShorthandUses(template, []);
}

/** `shorthandUses` into `uses` (a caller's reusable array), which it returns. */
export function collectShorthandUses(template: string, uses: ShorthandUse[]): ShorthandUse[] {
  // Only lines holding a sigil can hold a use: go from one to the next.
  let nextAt = template.indexOf('@');
  let nextDollar = template.indexOf('$');
  let from = 0;
  for (;;) {
    if (nextAt >= 0 && nextAt < from) nextAt = template.indexOf('@', from);
    if (nextDollar >= 0 && nextDollar < from) nextDollar = template.indexOf('$', from);
    const next = nextAt < 0 ? nextDollar : nextDollar < 0 ? nextAt : Math.min(nextAt, nextDollar);
    if (next < 0) break;
    const lineStart = template.lastIndexOf('\n', next) + 1;
    let lineEnd = template.indexOf('\n', next);
    const hasNewline = lineEnd >= 0;
    if (!hasNewline) lineEnd = template.length;
    const contentEnd = lineEnd > lineStart && template.charCodeAt(lineEnd - 1) === 0x0d ? lineEnd - 1 : lineEnd;
    rewriteLine(template, lineStart, contentEnd, undefined, uses);
    if (!hasNewline) break;
    from = lineEnd + 1;
  }
  return uses;
}

/** Rewrites line by line; without `pieces`, only the uses are collected. */
function scanLines(template: string, pieces: Piece[] | undefined, uses: ShorthandUse[]): void {
  let lineStart = 0;
  while (lineStart <= template.length) {
    let lineEnd = template.indexOf('\n', lineStart);
    const hasNewline = lineEnd >= 0;
    if (!hasNewline) lineEnd = template.length;
    const contentEnd = lineEnd > lineStart && template.charCodeAt(lineEnd - 1) === 0x0d ? lineEnd - 1 : lineEnd;
    rewriteLine(template, lineStart, contentEnd, pieces, uses);
    if (pieces && contentEnd < lineEnd + (hasNewline ? 1 : 0)) {
      pieces.push({ text: template.slice(contentEnd, hasNewline ? lineEnd + 1 : lineEnd), source: contentEnd, verbatim: true });
    }
    if (!hasNewline) break;
    lineStart = lineEnd + 1;
  }
}

function rewriteLine(template: string, start: number, end: number, pieces: Piece[] | undefined, uses: ShorthandUse[]): void {
  // Most lines hold no sigil at all: copy them whole. Lines with sigils but no escape (nor a
  // character that reads as a sentinel) map each character to itself.
  let plain = true;
  let simple = true;
  for (let i = start; i < end; i++) {
    const c = template.charCodeAt(i);
    if (c === 0x40 || c === 0x24) {
      plain = false;
      if (template.charCodeAt(i + 1) === c) {
        simple = false;
        break;
      }
    } else if (c === 0xe000 || c === 0xe001) simple = false;
  }
  if (plain) {
    if (pieces && end > start) pieces.push({ text: template.slice(start, end), source: start, verbatim: true });
    return;
  }
  if (simple) {
    rewriteSimpleLine(template, start, end, pieces, uses);
    return;
  }
  // Escapes first, so that `@@x` and `$$x` never read as shorthands.
  let line = '';
  const lineSource: number[] = [];
  for (let i = start; i < end; i++) {
    const c = template[i]!;
    if ((c === '@' || c === '$') && template[i + 1] === c) {
      line += c === '@' ? AT_SENTINEL : DOLLAR_SENTINEL;
      lineSource.push(i);
      i += 1;
      continue;
    }
    line += c;
    lineSource.push(i);
  }
  lineSource.push(end);
  const emit = (from: number, to: number): void => {
    if (!pieces) return;
    // Copies line[from, to) verbatim in runs of contiguous source, restoring escapes as one character.
    let runStart = from;
    const flush = (end: number): void => {
      if (end > runStart) pieces.push({ text: line.slice(runStart, end), source: lineSource[runStart]!, verbatim: true });
    };
    for (let i = from; i < to; i++) {
      const c = line[i]!;
      if (c === AT_SENTINEL || c === DOLLAR_SENTINEL) {
        flush(i);
        pieces.push({ text: c === AT_SENTINEL ? '@' : '$', source: lineSource[i]!, verbatim: false });
        runStart = i + 1;
      } else if (i > runStart && lineSource[i] !== lineSource[i - 1]! + 1) {
        flush(i);
        runStart = i;
      }
    }
    flush(to);
  };
  const at = AT_LINE.exec(line);
  if (at) {
    const [, lead, sigil, path, trail] = at as unknown as [string, string, '@' | '@?', string, string];
    const sigilAt = lead.length;
    emit(0, sigilAt);
    const source = lineSource[sigilAt]!;
    uses.push({ sigil, path, start: source, end: lineSource[sigilAt + sigil.length + path.length]! });
    if (pieces) {
      const tag = `{{ ${path}|tag(${JSON.stringify(path)}) }}`;
      pieces.push({ text: sigil === '@?' ? `{% if ${path} %}${tag}{% endif %}` : tag, source, verbatim: false });
    }
    emit(line.length - trail.length, line.length);
    return;
  }
  let last = 0;
  for (const m of line.matchAll(DOLLAR)) {
    emit(last, m.index);
    const source = lineSource[m.index]!;
    uses.push({ sigil: '$', path: m[1]!, start: source, end: lineSource[m.index + m[0].length]! });
    if (pieces) pieces.push({ text: `{{ ${m[1]}|format() }}`, source, verbatim: false });
    last = m.index + m[0].length;
  }
  emit(last, line.length);
}

/** A line with sigils but no escapes: line offsets are template offsets shifted by `start`. */
function rewriteSimpleLine(template: string, start: number, end: number, pieces: Piece[] | undefined, uses: ShorthandUse[]): void {
  const at = matchAtLine(template, start, end);
  if (at >= 0) {
    // AT_LINE: blanks, `@` or `@?`, a path, blanks: at is the offset of the `@`.
    const sigil: '@' | '@?' = template.charCodeAt(at + 1) === 0x3f ? '@?' : '@';
    const pathStart = at + sigil.length;
    let pathEnd = end;
    while (pathEnd > pathStart && isBlank(template.charCodeAt(pathEnd - 1))) pathEnd--;
    const path = template.slice(pathStart, pathEnd);
    if (pieces && at > start) pieces.push({ text: template.slice(start, at), source: start, verbatim: true });
    uses.push({ sigil, path, start: at, end: pathEnd });
    if (pieces) {
      const tag = `{{ ${path}|tag(${JSON.stringify(path)}) }}`;
      pieces.push({ text: sigil === '@?' ? `{% if ${path} %}${tag}{% endif %}` : tag, source: at, verbatim: false });
      if (end > pathEnd) pieces.push({ text: template.slice(pathEnd, end), source: pathEnd, verbatim: true });
    }
    return;
  }
  const line = template.slice(start, end);
  let last = 0;
  DOLLAR.lastIndex = 0;
  for (let m = DOLLAR.exec(line); m !== null; m = DOLLAR.exec(line)) {
    if (pieces && m.index > last) pieces.push({ text: line.slice(last, m.index), source: start + last, verbatim: true });
    const source = start + m.index;
    uses.push({ sigil: '$', path: m[1]!, start: source, end: source + m[0].length });
    if (pieces) pieces.push({ text: `{{ ${m[1]}|format() }}`, source, verbatim: false });
    last = m.index + m[0].length;
  }
  DOLLAR.lastIndex = 0;
  if (pieces && line.length > last) pieces.push({ text: line.slice(last), source: start + last, verbatim: true });
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function isIdentStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39);
}

/** Whether template[start, end) matches AT_LINE: a sigil and a path alone on the line. */
export function isAtLine(template: string, start: number, end: number): boolean {
  return matchAtLine(template, start, end) >= 0;
}

/** AT_LINE on template[start, end) without a copy of the line: the offset of the `@`, or -1. */
function matchAtLine(template: string, start: number, end: number): number {
  let i = start;
  while (i < end && isBlank(template.charCodeAt(i))) i++;
  if (i >= end || template.charCodeAt(i) !== 0x40) return -1;
  const at = i;
  i++;
  if (i < end && template.charCodeAt(i) === 0x3f) i++;
  // The path: identifiers joined by single dots.
  for (;;) {
    if (i >= end || !isIdentStart(template.charCodeAt(i))) return -1;
    i++;
    while (i < end && isIdentPart(template.charCodeAt(i))) i++;
    if (i < end && template.charCodeAt(i) === 0x2e) i++;
    else break;
  }
  while (i < end && isBlank(template.charCodeAt(i))) i++;
  return i === end ? at : -1;
}
