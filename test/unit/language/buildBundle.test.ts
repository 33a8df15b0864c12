// Building the model: reference texts are parsed once and their results shared by the sites that
// write the same text, in one bundle and across versions of it; each site still holds exactly what
// parsing its own text gives.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import type { Bundle, ConceptRefSite, IoRefSite, PipeRefSite } from '../../../server/src/language/model.js';
import { parseConceptRef, parseIoRef, parsePipeRef } from '../../../server/src/language/references.js';
import { parseToml } from '../../../server/src/syntax/document.js';

function sites(b: Bundle): { io: IoRefSite[]; concept: ConceptRefSite[]; pipe: PipeRefSite[] } {
  const io: IoRefSite[] = [];
  const concept: ConceptRefSite[] = [];
  const pipe: PipeRefSite[] = [];
  for (const c of b.concepts) {
    if (c.refines) concept.push(c.refines);
    for (const f of c.structure ?? []) for (const s of [f.conceptRef, f.itemConceptRef]) if (s) concept.push(s);
  }
  for (const p of b.pipes) {
    for (const i of p.inputs) if (i.ref) io.push(i.ref);
    if (p.output) io.push(p.output);
    pipe.push(...p.pipeRefs);
  }
  return { io, concept, pipe };
}

const BUNDLE = `domain = "demo"

[concept.Report]
refines = "Text"
description = "A report"

[pipe.first]
output = "Report"
type = "PipeLLM"
prompt = "Report on @doc"
inputs = { doc = "Text", notes = "Text[]" }

[pipe.second]
prompt = "Again: @doc"
output = "Report"
inputs = { doc = "Text" }
type = "PipeLLM"

[pipe.both]
type = "PipeSequence"
inputs = { doc = "Text" }
output = "Report"
steps = [{ pipe = "first", result = "a" }, { pipe = "second", result = "b" }, { pipe = "first", result = "c" }]
`;

describe('buildBundle', () => {
  it('shares the parsed reference among the sites writing the same text, across builds', () => {
    const a = sites(buildBundle('/a.mthds', parseToml(BUNDLE)));
    const b = sites(buildBundle('/a.mthds', parseToml(BUNDLE.replace('Again', 'Once more'))));
    const text = a.io.filter((s) => s.raw === 'Text');
    expect(text.length).toBe(3);
    for (const s of text) expect(s.ref).toBe(text[0]!.ref);
    expect(b.io.find((s) => s.raw === 'Text')!.ref).toBe(text[0]!.ref);
    const first = a.pipe.filter((s) => s.raw === 'first');
    expect(first.length).toBe(2);
    expect(first[1]!.ref).toBe(first[0]!.ref);
    expect(a.io.find((s) => s.raw === 'Text[]')!.ref).not.toBe(text[0]!.ref);
  });

  it('gives every site what parsing its own text gives', () => {
    const root = path.resolve(__dirname, '../../..');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith('.mthds')) files.push(p);
      }
    };
    walk(path.join(root, 'examples'));
    walk(path.join(root, 'test/fixtures'));
    let checked = 0;
    for (const file of [...files, ...files]) {
      const { io, concept, pipe } = sites(buildBundle(file, parseToml(readFileSync(file, 'utf8'))));
      for (const s of io) {
        const parsed = parseIoRef(s.raw);
        expect(s.ref).toEqual(parsed.ok ? parsed.value : undefined);
        checked++;
      }
      for (const s of concept) {
        const parsed = parseConceptRef(s.raw);
        expect(s.ref).toEqual(parsed.ok ? parsed.value : undefined);
        checked++;
      }
      for (const s of pipe) {
        if (s.special) continue;
        const parsed = parsePipeRef(s.raw);
        expect(s.ref).toEqual(parsed.ok ? parsed.value : undefined);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
