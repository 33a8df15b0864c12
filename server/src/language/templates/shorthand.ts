// The template shorthands (`$var`, `@var`, `@?var`) as the reference runtime reads them: only the
// placement rule of `@` needs checking before any Jinja parsing (language reference §6.2).

const IDENT_PATH = String.raw`[a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)*`;
const LONE_SIGIL_LINE = new RegExp(String.raw`^[ \t]*@\??${IDENT_PATH}[ \t]*$`);
// A lone sigil padded with other (non-ASCII) white space: refused when its root is an input.
const PADDED_SIGIL_LINE = new RegExp(String.raw`^\s*(@\??)(${IDENT_PATH})\s*$`, 'u');
const INLINE_SIGIL = new RegExp(String.raw`(?<![\w@])(@\??)(${IDENT_PATH})`, 'g');

export interface SigilFault {
  kind: 'inline' | 'padded';
  /** The sigil as written (`@` or `@?`). */
  sigil: string;
  /** The variable path after the sigil. */
  path: string;
  root: string;
  /** Offsets in the template string (the decoded value) of the sigil and its path. */
  start: number;
  end: number;
}

/**
 * `@var` / `@?var` written where the runtime refuses them: inline (not alone on its line) or
 * padded with non-ASCII white space, when the root of the path is one of `inputs`. Other `@word`
 * (e-mail addresses, CSS at-rules) pass untouched, as they do at run time.
 */
export function findSigilFaults(template: string, inputs: ReadonlySet<string>): SigilFault[] {
  // `@@` is an escaped `@`: blank it out without moving offsets.
  const text = template.replace(/@@/g, '\u0001\u0001');
  const faults: SigilFault[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const contentEnd = lineEnd > lineStart && text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
    const line = text.slice(lineStart, contentEnd);
    if (line.includes('@') && !LONE_SIGIL_LINE.test(line)) {
      const padded = PADDED_SIGIL_LINE.exec(line);
      if (padded) {
        const root = padded[2]!.split('.')[0]!;
        if (inputs.has(root)) {
          const at = line.indexOf('@');
          faults.push({ kind: 'padded', sigil: padded[1]!, path: padded[2]!, root, start: lineStart + at, end: lineStart + at + padded[1]!.length + padded[2]!.length });
        }
      } else {
        for (const m of line.matchAll(INLINE_SIGIL)) {
          const root = m[2]!.split('.')[0]!;
          if (!inputs.has(root)) continue;
          const start = lineStart + m.index;
          faults.push({ kind: 'inline', sigil: m[1]!, path: m[2]!, root, start, end: start + m[0].length });
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return faults;
}
