// Bad input never crashes the runner: members of every type in every place, and fixture bundles
// cut and shuffled at random (seeded), on /validate and /execute. No answer may be a 5xx.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../server/src/language/mock.js';
import { EXAMPLES, FIXTURE_BUNDLES, filesUnder } from '../../helpers/files.js';
import { HELLO, get, post, withRunner, type Runner } from './helpers.js';

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner({ limits: { run_timeout_seconds: 20 } });
});
afterAll(async () => {
  await runner.close();
});

const VALUES: unknown[] = [null, true, 0, -1, 1.5, 1e308, '', 'x', '\u0000', [], [null], [1, 'a'], {}, { a: { b: [] } }, { concept: 'Text', content: null }, { items: 3 }];
const MEMBERS = ['pipe_code', 'mthds_contents', 'inputs', 'output_name', 'output_multiplicity', 'dynamic_output_concept_ref', 'mthds_sources', 'files', 'callback_url', 'allow_signatures'];

describe('robustness', () => {
  it('answers every member of every type without a 5xx', async () => {
    for (const route of ['execute', 'start', 'validate']) {
      for (const member of MEMBERS) {
        for (const value of VALUES) {
          const body = { mthds_contents: [HELLO], [member]: value };
          const r = await post(`${runner.url}/${route}`, body);
          expect(r.status, `${route} ${member}=${JSON.stringify(value)}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
  });

  it('answers inputs of every shape without a 5xx', async () => {
    for (const value of VALUES) {
      for (const concept of ['Text', 'Image', 'Page', 'native.Dynamic', 'hello.Nope', '->', 'Text[]']) {
        const r = await post(`${runner.url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept, content: value } } });
        expect(r.status, `${concept} ${JSON.stringify(value)}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
  });

  it('validates and runs mutilated fixture bundles without a 5xx', async () => {
    const texts = [...filesUnder(FIXTURE_BUNDLES, '.mthds'), ...filesUnder(EXAMPLES, '.mthds')].map((f) => readFileSync(f, 'utf8'));
    expect(texts.length).toBeGreaterThan(5);
    const rng = createRng('robustness');
    for (let i = 0; i < 120; i++) {
      const text = texts[i % texts.length]!;
      const lines = text.split('\n');
      let mutated: string;
      switch (i % 4) {
        case 0:
          mutated = text.slice(0, rng.int(0, text.length));
          break;
        case 1:
          mutated = lines.filter(() => rng.next() > 0.15).join('\n');
          break;
        case 2: {
          const a = rng.int(0, lines.length - 1);
          const b = rng.int(0, lines.length - 1);
          [lines[a], lines[b]] = [lines[b]!, lines[a]!];
          mutated = lines.join('\n');
          break;
        }
        default:
          mutated = text.replace(/"(\w+)"/g, (m, w: string) => (rng.next() < 0.1 ? `"${w.split('').reverse().join('')}"` : m));
      }
      for (const route of ['validate', 'execute']) {
        const r = await post(`${runner.url}/${route}`, { mthds_contents: [mutated] });
        expect(r.status, `${route} #${i}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
        if (route === 'validate') expect(typeof r.json.is_valid).toBe('boolean');
      }
    }
    expect((await get(`${runner.url}/version`)).status).toBe(200);
  });
});
