// Request bodies: what is not JSON, not UTF-8, too large, too deep or of the wrong shape is a
// registry problem, never a crash and never a 5xx; the extension members and their checks.

import { gzipSync } from 'node:zlib';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELLO, get, post, problemOf, request, withRunner, type Reply, type Runner } from './helpers.js';

let runner: Runner;
beforeAll(async () => {
  runner = await withRunner({ limits: { max_body_bytes: 64 * 1024, max_files: 4, max_file_bytes: 8 * 1024, max_json_depth: 32 } });
});
afterAll(async () => {
  await runner.close();
});

const ROUTES = ['execute', 'start', 'validate'] as const;

/** Streams a chunked body of `total` bytes; resolves with the answer (the server may stop reading early). */
function streamChunked(url: string, total: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) });
      });
    });
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    let sent = 0;
    const chunk = Buffer.alloc(4096, 0x20);
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    req.write('{"mthds_contents": ["');
    pump();
  });
}

describe('malformed bodies', () => {
  it.each(ROUTES)('refuses a body that is not JSON on /%s', async (route) => {
    const r = await post(`${runner.url}/${route}`, '{"mthds_contents": [');
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'request.malformed', params: { reason: 'not_json' } });
  });

  it.each(['[1, 2]', '"text"', '42', 'null'])('refuses a JSON body that is not an object (%s)', async (body) => {
    const r = await post(`${runner.url}/execute`, body);
    expect(problemOf(r)).toMatchObject({ code: 'request.malformed', params: { reason: 'not_json' } });
  });

  it('refuses bytes that are not UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('{"mthds_contents": ["domain = \\"x\\" '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"]}')]);
    const r = await post(`${runner.url}/validate`, body);
    expect(problemOf(r)).toMatchObject({ code: 'request.malformed', params: { reason: 'not_utf8' } });
  });

  it('says what the bytes are: UTF-16 text, or bytes that are not UTF-8, never a code point UTF-8 cannot encode', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify({ mthds_contents: [HELLO] }), 'utf16le')]);
    const r16 = problemOf(await post(`${runner.url}/validate`, utf16));
    expect(r16).toMatchObject({ code: 'request.malformed', params: { reason: 'not_utf8' } });
    expect(r16.detail).toContain('UTF-16');
    // Without a byte order mark, UTF-16 of ASCII is valid UTF-8 (zero bytes): refused as JSON, said as UTF-16.
    const bom16 = problemOf(await post(`${runner.url}/validate`, Buffer.from(JSON.stringify({ mthds_contents: [HELLO] }), 'utf16le')));
    expect(bom16).toMatchObject({ code: 'request.malformed', params: { reason: 'not_json' } });
    expect(bom16.detail).toContain('UTF-16');
    const latin = problemOf(await post(`${runner.url}/validate`, Buffer.from('{"mthds_contents": ["caf\xe9"]}', 'latin1')));
    expect(latin.detail).toContain('not valid UTF-8');
    for (const p of [r16, bom16, latin]) expect(p.detail).not.toContain('code point');
  });

  it('answers a compressed body request.unsupported (Content-Encoding), not as JSON it cannot read', async () => {
    const gz = gzipSync(Buffer.from(JSON.stringify({ mthds_contents: [HELLO] })));
    const r = await post(`${runner.url}/validate`, gz, { 'Content-Encoding': 'gzip' });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'request.unsupported', params: { field: 'Content-Encoding', reason: 'content_encoding' } });
    expect((await post(`${runner.url}/validate`, { mthds_contents: [HELLO] }, { 'Content-Encoding': 'identity' })).status).toBe(200);
  });

  it('refuses a lone surrogate escaped in a string', async () => {
    const r = await post(`${runner.url}/validate`, '{"mthds_contents": ["domain = \\"\\ud800\\""]}');
    expect(problemOf(r)).toMatchObject({ code: 'request.malformed', params: { reason: 'not_utf8' } });
  });

  it('refuses a deeply nested body with 422, not 500', async () => {
    const r = await post(`${runner.url}/execute`, `{"inputs": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(r.status).toBe(422);
    expect(problemOf(r).code).toBe('request.invalid');
  });

  it('refuses bodies of another media type or charset', async () => {
    const form = await post(`${runner.url}/validate`, 'a=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(problemOf(form)).toMatchObject({ code: 'request.unsupported', params: { field: 'Content-Type', reason: 'media_type' } });
    const latin = await post(`${runner.url}/validate`, '{}', { 'Content-Type': 'application/json; charset=iso-8859-1' });
    expect(problemOf(latin)).toMatchObject({ code: 'request.unsupported', params: { reason: 'charset' } });
    const vendor = await post(`${runner.url}/validate`, { mthds_contents: [HELLO] }, { 'Content-Type': 'application/vnd.mthds+json; charset=utf-8' });
    expect(vendor.status).toBe(200);
  });
});

describe('size bounds', () => {
  it('refuses a declared Content-Length over the limit before reading it', async () => {
    const body = JSON.stringify({ mthds_contents: ['x'.repeat(70 * 1024)] });
    const r = await post(`${runner.url}/validate`, body);
    expect(r.status).toBe(413);
    expect(problemOf(r)).toMatchObject({ code: 'request.too_large', params: { limit: 65536, size: Buffer.byteLength(body) } });
    expect(r.headers['connection']).toBe('close');
  });

  it('refuses a streamed (chunked) body as soon as it passes the limit', async () => {
    const r = await streamChunked(`${runner.url}/execute`, 2 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ code: 'request.too_large', params: { limit: 65536 } });
    expect(r.json.params.size).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a bundle text over the per-file bound', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [`${HELLO}\n#${'x'.repeat(9000)}`] });
    expect(r.status).toBe(413);
    expect(problemOf(r)).toMatchObject({ code: 'request.too_large', params: { limit: 8192 } });
  });

  it('refuses more files than the bound', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: Array(5).fill(HELLO) });
    expect(r.status).toBe(413);
    expect(problemOf(r)).toMatchObject({ code: 'request.too_large', params: { limit: 4, size: 5 }, bound: 'file_count' });
    const files = await post(`${runner.url}/execute`, { files: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`b${i}.mthds`, HELLO])) });
    // A package past the bound is a package fault, with the bound as its limit.
    expect(files.status).toBe(422);
    expect(problemOf(files)).toMatchObject({ code: 'method.package_invalid', params: { reason: 'too_many_files', limit: 4 } });
    const four = await post(`${runner.url}/validate`, { files: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`b${i}.mthds`, HELLO.replace('"hello"', `"h${i}"`)])) });
    expect(four.status).toBe(200);
  });

  it('drops a body that does not arrive in time, and keeps serving', async () => {
    const slow = await withRunner({ limits: { body_timeout_ms: 300 } });
    try {
      const { port, hostname } = new URL(slow.url);
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mthds_');
      const started = Date.now();
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      await new Promise((resolve) => socket.once('close', resolve));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(received).toBe('');
      expect((await get(`${slow.url}/version`)).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('keeps serving after refusals', async () => {
    expect((await get(`${runner.url}/version`)).status).toBe(200);
  });
});

describe('request shapes', () => {
  it.each(['execute', 'start'])('refuses an empty run request on /%s', async (route) => {
    const r = await post(`${runner.url}/${route}`, {});
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'request.invalid', params: { field: 'pipe_code' } });
  });

  it.each([
    ['pipe_code', { pipe_code: '' }],
    ['mthds_contents', { mthds_contents: [] }],
    ['mthds_contents', { mthds_contents: 'text' }],
    ['mthds_contents.1', { mthds_contents: [HELLO, 3] }],
    ['inputs', { mthds_contents: [HELLO], inputs: [] }],
    ['inputs.name', { mthds_contents: [HELLO], inputs: { name: 'Ada' } }],
    ['inputs.name.concept', { mthds_contents: [HELLO], inputs: { name: { content: 'Ada' } } }],
    ['inputs.name.content', { mthds_contents: [HELLO], inputs: { name: { concept: 'Text' } } }],
    ['output_multiplicity', { mthds_contents: [HELLO], output_multiplicity: 'many' }],
    ['output_multiplicity', { mthds_contents: [HELLO], output_multiplicity: 0 }],
    ['output_name', { mthds_contents: [HELLO], output_name: 'has space' }],
    ['dynamic_output_concept_ref', { mthds_contents: [HELLO], dynamic_output_concept_ref: 7 }],
  ])('names the failing field %s', async (field, body) => {
    const r = await post(`${runner.url}/execute`, body);
    expect(problemOf(r)).toMatchObject({ code: 'request.invalid', params: { field } });
  });

  it.each([
    ['mthds_contents', {}],
    ['mthds_contents', { mthds_contents: [] }],
    ['mthds_contents', { mthds_contents: 'x' }],
    ['allow_signatures', { mthds_contents: [HELLO], allow_signatures: 'yes' }],
  ])('refuses a validate request failing %s without a verdict', async (field, body) => {
    const r = await post(`${runner.url}/validate`, body);
    expect(r.status).toBe(422);
    expect(r.json.is_valid).toBeUndefined();
    expect(problemOf(r)).toMatchObject({ code: 'request.invalid', params: { field } });
  });

  it('refuses extension members it does not support, naming them', async () => {
    const r = await post(`${runner.url}/execute`, { mthds_contents: [HELLO], orchestration_mode: 'temporal' });
    expect(problemOf(r)).toMatchObject({ code: 'request.unsupported', params: { field: 'orchestration_mode', reason: 'extension_member' } });
    const id = await post(`${runner.url}/start`, { mthds_contents: [HELLO], pipeline_run_id: 'mine' });
    expect(problemOf(id)).toMatchObject({ code: 'request.unsupported', params: { field: 'pipeline_run_id' } });
    const render = await post(`${runner.url}/validate`, { mthds_contents: [HELLO], render: ['markdown'] });
    expect(problemOf(render)).toMatchObject({ code: 'request.unsupported', params: { field: 'render' } });
    const callback = await post(`${runner.url}/execute`, { mthds_contents: [HELLO], callback_url: 'https://example.com/' });
    expect(problemOf(callback)).toMatchObject({ code: 'request.unsupported', params: { field: 'callback_url', reason: 'start_only' } });
  });

  it('refuses mthds_sources of another length than mthds_contents', async () => {
    const r = await post(`${runner.url}/validate`, { mthds_contents: [HELLO], mthds_sources: ['a.mthds', 'b.mthds'] });
    expect(r.status).toBe(422);
    const p = problemOf(r);
    expect(p).toMatchObject({ code: 'request.invalid', params: { field: 'mthds_sources' } });
    expect(p.detail).toContain('mthds_sources');
  });

  it('accepts the protocol members as null', async () => {
    const r = await post(`${runner.url}/execute`, { pipe_code: null, mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'Ada' } }, output_name: null, output_multiplicity: null, dynamic_output_concept_ref: null });
    expect(r.status).toBe(200);
  });
});

describe('files', () => {
  it.each([
    ['../up.mthds', 'leaves_tree'],
    ['a/../../b.mthds', 'leaves_tree'],
    ['/etc/x.mthds', 'absolute'],
    ['a\\b.mthds', 'backslash'],
    ['file:x.mthds', 'scheme'],
    ['https://h/x.mthds', 'scheme'],
    ['a//b.mthds', 'not_normalized'],
    ['./a.mthds', 'not_normalized'],
  ])('refuses the key %s (%s) with method.package_invalid', async (key, reason) => {
    const r = await post(`${runner.url}/execute`, { files: { [key]: HELLO } });
    expect(r.status).toBe(422);
    expect(problemOf(r)).toMatchObject({ code: 'method.package_invalid', params: { reason, path: key } });
  });

  it('refuses a files map with no bundle, an empty one, and one beside mthds_contents', async () => {
    expect(problemOf(await post(`${runner.url}/execute`, { files: { 'notes.txt': 'x' } }))).toMatchObject({ code: 'method.package_invalid', params: { reason: 'no_source' } });
    expect(problemOf(await post(`${runner.url}/execute`, { files: {} }))).toMatchObject({ code: 'method.package_invalid', params: { reason: 'no_source' } });
    expect(problemOf(await post(`${runner.url}/execute`, { files: { 'a.mthds': HELLO }, mthds_contents: [HELLO] }))).toMatchObject({ code: 'request.invalid', params: { field: 'files' } });
    expect(problemOf(await post(`${runner.url}/execute`, { files: ['a.mthds'] }))).toMatchObject({ code: 'request.invalid', params: { field: 'files' } });
    expect(problemOf(await post(`${runner.url}/execute`, { files: { 'a.mthds': 3 } }))).toMatchObject({ code: 'request.invalid', params: { field: 'files.a.mthds' } });
  });

  it('answers hash entries with request.blobs_missing (no blob store)', async () => {
    const sha = 'a'.repeat(64);
    const r = await post(`${runner.url}/execute`, { files: { 'a.mthds': HELLO, 'big.pdf': { sha256: sha, size: 10 } } });
    expect(problemOf(r)).toMatchObject({ code: 'request.blobs_missing', params: { missing_blobs: [sha] } });
    const bad = await post(`${runner.url}/execute`, { files: { 'a.mthds': HELLO, 'big.pdf': { sha256: 'nope' } } });
    expect(problemOf(bad)).toMatchObject({ code: 'request.invalid', params: { field: 'files.big.pdf.sha256' } });
  });

  it('runs a package sent as files, its manifest choosing the main pipe', async () => {
    const manifest = '[package]\nname = "hello_pkg"\naddress = "github.com/acme/hello"\nversion = "1.0.0"\ndescription = "Hello"\nmain_pipe = "greet"\n\n[exports.hello]\npipes = ["greet"]\n';
    const r = await post(`${runner.url}/execute`, { files: { 'METHODS.toml': manifest, 'bundles/hello.mthds': HELLO }, inputs: { name: { concept: 'Text', content: 'Ada' } } });
    expect(r.status).toBe(200);
    const v = await post(`${runner.url}/validate`, { files: { 'METHODS.toml': manifest, 'bundles/hello.mthds': HELLO } });
    expect(v.json).toMatchObject({ is_valid: true });
  });

  it('rejects the request methods that never carry a body the same way', async () => {
    expect((await request(`${runner.url}/validate`, { method: 'POST' })).status).toBe(422);
  });
});
