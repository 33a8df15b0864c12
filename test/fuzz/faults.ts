// Single faults an author makes in a valid bundle, for the property tests of the fix-all: a
// misspelt key, a misspelt reference (a step's pipe, a concept, a variable a template reads) and a
// wrong pipe type. Unlike mutations.ts (damage to bytes), each fault leaves the TOML valid and
// changes one word, so that the checker's findings and fixes are those of a real slip.

import fc from 'fast-check';
import { buildBundle } from '../../server/src/language/buildBundle.js';
import type { Bundle } from '../../server/src/language/model.js';
import { PIPE_TYPES } from '../../server/src/language/spec/pipeTypes.js';
import { parseToml } from '../../server/src/syntax/document.js';
import type { Range } from '../../server/src/syntax/types.js';

export type FaultKind = 'key' | 'pipe_ref' | 'concept_ref' | 'read' | 'type';

export interface Fault {
  kind: FaultKind;
  /** Which site of that kind (modulo their number). */
  site: number;
  /** How the word is changed (see misspell), or which other type is written. */
  how: number;
}

export const fault: fc.Arbitrary<Fault> = fc.record({
  kind: fc.constantFrom<FaultKind>('key', 'pipe_ref', 'concept_ref', 'read', 'type'),
  site: fc.nat(),
  how: fc.nat(),
});

/** A word spelt wrong: a letter dropped, doubled, or two neighbours swapped (never the same word). */
export function misspell(word: string, how: number): string {
  const forms: string[] = [];
  for (let i = 1; i < word.length; i++) {
    if (word.length >= 4) forms.push(word.slice(0, i) + word.slice(i + 1));
    forms.push(word.slice(0, i) + word[i] + word.slice(i));
    if (i + 1 < word.length && word[i] !== word[i + 1]) forms.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  const distinct = [...new Set(forms)].filter((f) => f !== word && f !== '');
  return distinct[how % distinct.length] ?? `${word}x`;
}

interface Site {
  range: Range;
  word: string;
}

/** The places of a fault kind in a bundle, in source order: where the word to change lies. */
function sites(bundle: Bundle, kind: FaultKind): Site[] {
  const text = bundle.doc.text;
  const out: Site[] = [];
  for (const pipe of bundle.pipes) {
    if (kind === 'key') {
      for (const e of pipe.table.entries) if (e.key !== 'type' && e.key.length >= 4 && text.slice(e.keyRange.start, e.keyRange.end) === e.key) out.push({ range: e.keyRange, word: e.key });
    } else if (kind === 'type') {
      if (pipe.type) out.push({ range: pipe.type.range, word: pipe.type.value });
    } else if (kind === 'pipe_ref') {
      for (const r of pipe.pipeRefs) {
        if (r.special || !/^[a-z][a-z0-9_]*$/.test(r.raw)) continue;
        const at = text.indexOf(r.raw, r.node.range.start);
        if (at >= 0 && at < r.node.range.end) out.push({ range: { start: at, end: at + r.raw.length }, word: r.raw });
      }
    } else if (kind === 'concept_ref') {
      const refs = [...pipe.inputs.map((i) => i.ref), pipe.output].filter((r) => r !== undefined);
      for (const r of refs) {
        const m = /^(?:[a-z][a-z0-9_]*\.)?([A-Z][A-Za-z0-9]+)/.exec(r.raw);
        if (!m) continue;
        const at = text.indexOf(m[1]!, r.node.range.start);
        if (at >= 0 && at < r.node.range.end) out.push({ range: { start: at, end: at + m[1]!.length }, word: m[1]! });
      }
    } else {
      const body = text.slice(pipe.range.start, pipe.range.end);
      for (const input of pipe.inputs) {
        for (const m of body.matchAll(new RegExp(`[$@]${input.name}\\b`, 'g'))) {
          const start = pipe.range.start + m.index + 1;
          out.push({ range: { start, end: start + input.name.length }, word: input.name });
        }
      }
    }
  }
  return out.sort((a, b) => a.range.start - b.range.start);
}

/** The bundle text with one fault, or undefined when it has no site of that kind. */
export function applyFault(text: string, f: Fault): string | undefined {
  const bundle = buildBundle('/virtual/fault.mthds', parseToml(text));
  const list = sites(bundle, f.kind);
  if (list.length === 0) return undefined;
  const site = list[f.site % list.length]!;
  let word: string;
  if (f.kind === 'type') {
    const others = PIPE_TYPES.map((t) => t.name as string).filter((n) => n !== site.word);
    // Half the time another current type (a wrong type), else the type misspelt (an unknown one).
    word = f.how % 2 === 0 ? others[(f.how >> 1) % others.length]! : misspell(site.word, f.how >> 1);
  } else word = misspell(site.word, f.how);
  return text.slice(0, site.range.start) + word + text.slice(site.range.end);
}

/**
 * What the author declared in a bundle, one string each: pipes, concepts, each pipe's inputs and
 * keys. A fix-all may repair a misspelt one (the misspelling disappears) but never remove one.
 */
export function declarations(text: string): Set<string> {
  const bundle = buildBundle('/virtual/fault.mthds', parseToml(text));
  const out = new Set<string>();
  for (const c of bundle.concepts) out.add(`concept ${c.code}`);
  for (const p of bundle.pipes) {
    out.add(`pipe ${p.code}`);
    for (const i of p.inputs) out.add(`input ${p.code}.${i.name}`);
    for (const e of p.table.entries) out.add(`key ${p.code}.${e.key}`);
  }
  return out;
}
