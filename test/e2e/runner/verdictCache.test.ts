// The verdict cache of /validate over loopback HTTP: a hit answers the bytes of the miss that
// filled it, requests that differ in anything the verdict reads are different entries, and a
// method whose verdict read the package store is never kept.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../server/src/runner/config.js';
import { createHandler, createState, type RunnerState } from '../../../server/src/runner/server.js';
import { VerdictCache } from '../../../server/src/runner/verdictCache.js';
import { HELLO, post } from './helpers.js';

let server: http.Server;
let state: RunnerState;
let url: string;

beforeAll(async () => {
  state = createState(resolveConfig({ port: 0, log: () => {}, env: {}, packages_dir: '/nonexistent-mthds-store' }));
  server = http.createServer(createHandler(state));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const SIGNATURE = `domain = "sig"
main_pipe = "draft"

[pipe.draft]
description = "Draft a text"
inputs = { topic = "Text" }
output = "Text"
`;

const BROKEN = `domain = "broken"

[pipe.greet]
type = "PipeLLM"
description = "Greet"
inputs = { name = "Text" }
output = "Nowhere"
prompt = "Say hello to $nam."
`;

describe('verdict cache', () => {
  it('answers a repeated request with the bytes of the first answer', async () => {
    for (const contents of [[HELLO], [BROKEN], [HELLO, SIGNATURE]]) {
      const before = state.verdicts.size;
      const miss = await post(`${url}/validate`, { mthds_contents: contents, mthds_sources: contents.map((_, i) => `b${i}.mthds`) });
      expect(miss.status).toBe(200);
      expect(state.verdicts.size).toBe(before + 1);
      const hit = await post(`${url}/validate`, { mthds_contents: contents, mthds_sources: contents.map((_, i) => `b${i}.mthds`) });
      expect(state.verdicts.size).toBe(before + 1);
      expect(hit.status).toBe(200);
      expect(hit.headers['content-type']).toBe(miss.headers['content-type']);
      expect(hit.text).toBe(miss.text);
    }
    const broken = await post(`${url}/validate`, { mthds_contents: [BROKEN], mthds_sources: ['b0.mthds'] });
    expect(broken.json.is_valid).toBe(false);
  });

  it('keeps requests apart that differ in allow_signatures, names or the way the method is sent', async () => {
    const before = state.verdicts.size;
    const strict = await post(`${url}/validate`, { mthds_contents: [SIGNATURE] });
    const lenient = await post(`${url}/validate`, { mthds_contents: [SIGNATURE], allow_signatures: true });
    const named = await post(`${url}/validate`, { mthds_contents: [SIGNATURE], mthds_sources: ['sig.mthds'] });
    const files = await post(`${url}/validate`, { files: { 'sig.mthds': SIGNATURE } });
    expect(state.verdicts.size).toBe(before + 4);
    // Signatures are dry-run only when allowed.
    expect(strict.json.validated_pipes).toEqual([]);
    expect(lenient.json.validated_pipes).toEqual([{ pipe_ref: 'sig.draft', status: 'SUCCESS' }]);
    expect(named.text).toBe(strict.text);
    // Each of them again: the same bytes, no new entry.
    expect((await post(`${url}/validate`, { mthds_contents: [SIGNATURE], allow_signatures: true })).text).toBe(lenient.text);
    expect((await post(`${url}/validate`, { mthds_contents: [SIGNATURE], allow_signatures: false })).text).toBe(strict.text);
    expect((await post(`${url}/validate`, { files: { 'sig.mthds': SIGNATURE } })).text).toBe(files.text);
    expect(state.verdicts.size).toBe(before + 4);
  });

  it('never keeps a verdict that read the package store', async () => {
    const before = state.verdicts.size;
    const reaching = HELLO.replace('inputs = { name = "Text" }', 'inputs = { name = "github.com/acme/lib->lib.Name" }');
    const first = await post(`${url}/validate`, { mthds_contents: [reaching] });
    expect(first.json.is_valid).toBe(false);
    expect(JSON.stringify(first.json.validation_errors)).toContain('method.dependency_missing');
    await post(`${url}/validate`, { mthds_contents: [reaching] });
    expect(state.verdicts.size).toBe(before);
  });

  it('is bounded in entries and bytes, least recently used out first', () => {
    const cache = new VerdictCache({ maxEntries: 2, maxBytes: 1 << 20 });
    const loaded = { tree: { root: '', bundles: [], files: new Set<string>(), symbols: new Map() }, names: new Map(), sources: new Map(), findings: [] };
    const keys = ['a', 'b', 'c'].map((t) => cache.key({ kind: 'contents', contents: [t] }, false)!);
    cache.set(keys[0]!, loaded, 'A');
    cache.set(keys[1]!, loaded, 'B');
    expect(cache.get(keys[0]!)).toBe('A');
    cache.set(keys[2]!, loaded, 'C');
    expect(cache.get(keys[1]!)).toBeUndefined();
    expect(cache.get(keys[0]!)).toBe('A');
    const small = new VerdictCache({ maxEntries: 100, maxBytes: 400 });
    small.set(keys[0]!, loaded, 'x'.repeat(150));
    small.set(keys[1]!, loaded, 'y'.repeat(10));
    expect(small.get(keys[0]!)).toBeUndefined();
    expect(small.get(keys[1]!)).toBe('y'.repeat(10));
    expect(new VerdictCache({ maxEntries: 0, maxBytes: 1 }).key({ kind: 'contents', contents: ['a'] }, false)).toBeUndefined();
  });
});
