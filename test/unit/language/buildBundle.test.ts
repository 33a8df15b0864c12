// Building the model: reference texts are parsed once and their results shared by the sites that
// write the same text, in one bundle and across versions of it; each site still holds exactly what
// parsing its own text gives.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

describe('the shared reference results keep no bundle text alive', () => {
  it('bundles built once and dropped leave their texts collectable', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Each text is large and writes references found in no other bundle, as distinct bundles sent
    // to a runner do; the memo's keys and results are cut from these texts.
    const padding = `# ${'x'.repeat(200_000)}\n`;
    const build = (i: number): void => {
      const text = `domain = "retained_${i}"\n${padding}[concept.Thing${i}]\ndescription = "d"\nrefines = "retained_${i}.OtherThing${i}"\n[pipe.do_it_${i}]\ntype = "PipeSequence"\ndescription = "d"\noutput = "retained_${i}.Thing${i}"\nsteps = [{ pipe = "retained_${i}.some_step_${i}" }]\n`;
      buildBundle(`/r/${i}.mthds`, parseToml(text));
    };
    build(-1);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 150; i++) build(i);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // 150 texts of 200 kB: 30 MB when the memo keeps them.
    expect(grown).toBeLessThan(8_000_000);
  });
});
