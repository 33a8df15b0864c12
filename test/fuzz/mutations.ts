// Mutations of real documents for fuzzing the language core: the kinds of damage an editor buffer
// or a bad file really shows (truncation, lost and doubled lines, stray bytes, runaway strings,
// deep nesting, invalid UTF-8, NUL bytes).

import fc from 'fast-check';
import { decodeMethodBytes } from '../../server/src/workspace/readText.js';

export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'deleteLines'; at: number; count: number }
  | { kind: 'duplicateLine'; from: number; to: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'hugeString'; at: number; length: number }
  | { kind: 'deepNesting'; at: number; depth: number; open: string }
  | { kind: 'invalidUtf8'; at: number; byte: number }
  | { kind: 'nul'; at: number };

const fragments = ['"', '"""', "'''", '[', ']', '{', '}', '=', ',', '.', '\n', '[pipe.', '[concept.', 'type = "Pipe', 'inputs = {', '$', '@', '{{', '{%', '->', '[]', '?', '!', '\\u00', '#'];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 127 }) }),
  fc.record({ kind: fc.constant('deleteLines' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('duplicateLine' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...fragments) }),
  fc.record({ kind: fc.constant('hugeString' as const), at: fc.nat(), length: fc.integer({ min: 1_000, max: 200_000 }) }),
  fc.record({ kind: fc.constant('deepNesting' as const), at: fc.nat(), depth: fc.integer({ min: 10, max: 3_000 }), open: fc.constantFrom('[', '{ a = ') }),
  fc.record({ kind: fc.constant('invalidUtf8' as const), at: fc.nat(), byte: fc.integer({ min: 0x80, max: 0xff }) }),
  fc.record({ kind: fc.constant('nul' as const), at: fc.nat() }),
);

/** Applies mutations in order; the result is text as the tools would read it from disk. */
export function mutate(text: string, mutations: readonly Mutation[]): string {
  let t = text;
  for (const m of mutations) {
    const at = (n: number): number => (t.length === 0 ? 0 : n % (t.length + 1));
    const lines = (): string[] => t.split('\n');
    switch (m.kind) {
      case 'truncate':
        t = t.slice(0, at(m.at));
        break;
      case 'flip': {
        const i = at(m.at);
        t = t.slice(0, i) + String.fromCharCode(m.byte) + t.slice(i + 1);
        break;
      }
      case 'deleteLines': {
        const ls = lines();
        ls.splice(m.at % Math.max(ls.length, 1), m.count);
        t = ls.join('\n');
        break;
      }
      case 'duplicateLine': {
        const ls = lines();
        ls.splice(m.to % (ls.length + 1), 0, ls[m.from % ls.length] ?? '');
        t = ls.join('\n');
        break;
      }
      case 'insert': {
        const i = at(m.at);
        t = t.slice(0, i) + m.text + t.slice(i);
        break;
      }
      case 'hugeString': {
        const i = at(m.at);
        t = `${t.slice(0, i)}"${'x'.repeat(m.length)}"${t.slice(i)}`;
        break;
      }
      case 'deepNesting': {
        const i = at(m.at);
        t = `${t.slice(0, i)}a = ${m.open.repeat(m.depth)}${t.slice(i)}`;
        break;
      }
      case 'invalidUtf8': {
        // Bytes on disk: decoded as the tools decode files (the fault becomes a finding).
        const bytes = Buffer.from(t, 'utf8');
        const i = bytes.length === 0 ? 0 : m.at % bytes.length;
        const broken = Buffer.concat([bytes.subarray(0, i), Buffer.from([m.byte]), bytes.subarray(i)]);
        const decoded = decodeMethodBytes(broken);
        t = decoded.ok ? decoded.text : t;
        break;
      }
      case 'nul': {
        const i = at(m.at);
        t = `${t.slice(0, i)}\u0000${t.slice(i)}`;
        break;
      }
    }
  }
  return t;
}
