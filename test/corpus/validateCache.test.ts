// The caches of /validate change no verdict: every bundle of the shared corpus is validated from
// scratch (template caches emptied before each bundle, no verdict cache), then through the runner's
// route twice, in the reverse order (templates compiled for other bundles reused, then the verdict
// answered from the verdict cache). The three answers must be the same bytes.

import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearAnalysisCache } from '../../server/src/language/templates/analyze.js';
import { clearRenderCaches } from '../../server/src/language/templates/render.js';
import { resolveConfig } from '../../server/src/runner/config.js';
import { dryRun } from '../../server/src/runner/dryRun.js';
import { createHandler, createState, type RunnerState } from '../../server/src/runner/server.js';
import { validateContents } from '../../server/src/runner/validate.js';
import { post } from '../e2e/runner/helpers.js';
import { SHARED, sharedPath } from './shared.js';

const MANIFEST = sharedPath('corpus/MANIFEST.shared.json');
const WORK = path.dirname(SHARED);
// A store that does not exist: no verdict depends on what happens to be installed.
const STORE = path.join(SHARED, 'no-such-package-store');

let server: http.Server;
let state: RunnerState;
let url: string;

beforeAll(async () => {
  state = createState(resolveConfig({ port: 0, log: () => {}, env: {}, packages_dir: STORE, limits: { max_file_bytes: 16 * 1024 * 1024 } }));
  server = http.createServer(createHandler(state));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('verdicts with and without the caches', () => {
  it('are byte for byte the same on every corpus bundle', async () => {
    const entries = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as Array<{ kind: string; path: string }>).filter((e) => e.kind === 'bundle');
    expect(entries.length).toBeGreaterThan(100);
    const bundles = entries.map((e) => ({ name: e.path, text: readFileSync(path.join(WORK, e.path), 'utf8') }));
    const fresh = new Map<string, string>();
    for (const b of bundles) {
      clearRenderCaches();
      clearAnalysisCache();
      const verdict = await validateContents({ kind: 'contents', contents: [b.text], sources: [b.name] }, { dryRun, packagesDir: STORE });
      fresh.set(b.name, JSON.stringify(verdict));
    }
    const differing: string[] = [];
    let kept = 0;
    for (const b of [...bundles].reverse()) {
      const body = { mthds_contents: [b.text], mthds_sources: [b.name] };
      const before = state.verdicts.size;
      const miss = await post(`${url}/validate`, body);
      if (state.verdicts.size > before) kept++;
      const hit = await post(`${url}/validate`, body);
      expect(miss.status, b.name).toBe(200);
      if (miss.text !== fresh.get(b.name) || hit.text !== miss.text) differing.push(b.name);
    }
    expect(differing).toEqual([]);
    // Most bundles read no package, so their second answer came from the cache.
    expect(kept).toBeGreaterThan(bundles.length / 2);
  }, 300_000);
});
