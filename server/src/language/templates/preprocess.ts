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
  let lineStart = 0;
  while (lineStart <= template.length) {
    let lineEnd = template.indexOf('\n', lineStart);
    const hasNewline = lineEnd >= 0;
    if (!hasNewline) lineEnd = template.length;
    const contentEnd = lineEnd > lineStart && template[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    rewriteLine(template, lineStart, contentEnd, pieces, uses);
    if (contentEnd < lineEnd + (hasNewline ? 1 : 0)) {
      pieces.push({ text: template.slice(contentEnd, hasNewline ? lineEnd + 1 : lineEnd), source: contentEnd, verbatim: true });
    }
    if (!hasNewline) break;
    lineStart = lineEnd + 1;
  }
  let length = 0;
  for (const piece of pieces) length += piece.text.length;
  const sourceOffsets = new Int32Array(length + 1);
  let at = 0;
  for (const piece of pieces) {
    for (let i = 0; i < piece.text.length; i++) sourceOffsets[at++] = piece.verbatim ? piece.source + i : piece.source;
  }
  sourceOffsets[length] = template.length;
  return { jinja: pieces.map((p) => p.text).join(''), sourceOffsets, uses };
}

function rewriteLine(template: string, start: number, end: number, pieces: Piece[], uses: ShorthandUse[]): void {
  // Most lines hold no sigil at all: copy them whole.
  let plain = true;
  for (let i = start; i < end; i++) {
    const c = template.charCodeAt(i);
    if (c === 0x40 || c === 0x24) {
      plain = false;
      break;
    }
  }
  if (plain) {
    if (end > start) pieces.push({ text: template.slice(start, end), source: start, verbatim: true });
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
    const tag = `{{ ${path}|tag(${JSON.stringify(path)}) }}`;
    pieces.push({ text: sigil === '@?' ? `{% if ${path} %}${tag}{% endif %}` : tag, source, verbatim: false });
    emit(line.length - trail.length, line.length);
    return;
  }
  let last = 0;
  for (const m of line.matchAll(DOLLAR)) {
    emit(last, m.index);
    const source = lineSource[m.index]!;
    uses.push({ sigil: '$', path: m[1]!, start: source, end: lineSource[m.index + m[0].length]! });
    pieces.push({ text: `{{ ${m[1]}|format() }}`, source, verbatim: false });
    last = m.index + m[0].length;
  }
  emit(last, line.length);
}
