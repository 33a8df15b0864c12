// The template shorthands (`$var`, `@var`, `@?var`) as the reference runtime reads them: only the
// placement rule of `@` needs checking before any Jinja parsing (language reference §6.2).

import { isAtLine } from './preprocess.js';

const IDENT_PATH = String.raw`[a-zA-Z_][a-zA-Z0-9_]*(?:\.[a-zA-Z_][a-zA-Z0-9_]*)*`;
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
export function findSigilFaults(template: string, inputs: { has(name: string): boolean }): readonly SigilFault[] {
  // `@@` is an escaped `@`: blank it out without moving offsets.
  const text = template.indexOf('@@') >= 0 ? template.replace(/@@/g, '\u0001\u0001') : template;
  let faults: SigilFault[] | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    // Lines without `@` hold no fault: go straight to the next line that has one.
    const sigil = text.indexOf('@', lineStart);
    if (sigil < 0) break;
    lineStart = text.lastIndexOf('\n', sigil) + 1;
    let lineEnd = text.indexOf('\n', sigil);
    if (lineEnd < 0) lineEnd = text.length;
    const contentEnd = lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 0x0d ? lineEnd - 1 : lineEnd;
    // A sigil alone on its line (`^[ \t]*@\??path[ \t]*$`) is where it belongs.
    if (sigil < contentEnd && !isAtLine(text, lineStart, contentEnd)) {
      const line = text.slice(lineStart, contentEnd);
      const padded = PADDED_SIGIL_LINE.exec(line);
      if (padded) {
        const root = padded[2]!.split('.')[0]!;
        if (inputs.has(root)) {
          const at = line.indexOf('@');
          (faults ??= []).push({ kind: 'padded', sigil: padded[1]!, path: padded[2]!, root, start: lineStart + at, end: lineStart + at + padded[1]!.length + padded[2]!.length });
        }
      } else {
        for (const m of line.matchAll(INLINE_SIGIL)) {
          const root = m[2]!.split('.')[0]!;
          if (!inputs.has(root)) continue;
          const start = lineStart + m.index;
          (faults ??= []).push({ kind: 'inline', sigil: m[1]!, path: m[2]!, root, start, end: start + m[0].length });
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return faults ?? NO_FAULTS;
}

const NO_FAULTS: readonly SigilFault[] = Object.freeze([]);
