// Hostile input to the runner (issue "Hardening", item 3): a table-driven campaign over real HTTP
// on loopback. Malformed JSON, wrong types at every member, generated bodies (fast-check, fixed
// seeds), huge and deep bodies, slow clients, invalid UTF-8, paths that leave the tree, file
// bombs, raw HTTP oddities, concurrent idempotent requests, bad and expired tokens, and URL
// inputs and callbacks aimed at the runner's own network (server-side request forgery).
//
// Every answer is audited the same way (`check`): never a 5xx, every refusal an RFC 7807
// `application/problem+json` document whose code is a registry code with that status and
// well-formed parameters, and no byte of a file outside the request in any answer. The main
// campaign runs against the runner as a process of its own (hostileServe.ts, preloaded with
// fsAudit.mjs): its peak memory is measured, and every file it opens while serving is recorded —
// there must be none, since a request's files come only from its body. The one 5xx the runner
// means to give, the 503 of a saturated body budget (overload, retry_after), is tested on its own.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as dns } from 'node:dns';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromTypeUri, getEntry, isRegistryCode, validateParams, withheldParams } from '../../../server/src/registry/index.js';
import { isNonPublicAddress } from '../../../server/src/runner/network.js';
import { chatCompletion, PNG_BASE64, startFakeOpenAI, type FakeOpenAI } from './fakeOpenAI.js';
import { HELLO, get, post, request, withRunner, type Reply, type Runner } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// The audit of every answer

/** Text of a file outside any method tree; no answer may ever contain it. */
const SECRET = `HOSTILE-SECRET-${randomBytes(8).toString('hex')}`;
const NEVER_IN_ANSWERS = [SECRET, 'root:x:0:0'];

const tally = new Map<string, number>();

interface Want {
  status?: number;
  code?: string;
  params?: Record<string, unknown>;
}

function paramFaults(code: string, params: unknown): string[] {
  const entry = getEntry(code);
  if (!entry) return [`unknown code ${code}`];
  const withheld = new Set(withheldParams(entry));
  return validateParams(code, (params ?? {}) as Record<string, unknown>)
    .filter((f) => !(f.kind === 'missing_param' && f.param !== undefined && withheld.has(f.param)))
    .map((f) => f.message);
}

/** A registry problem: the media type, the RFC 7807 members, a registry code of that status, valid params. */
function expectProblem(r: Reply, where: string): void {
  expect(r.headers['content-type'], where).toBe('application/problem+json');
  const p = r.json as Record<string, any> | undefined;
  expect(p, where).toBeTypeOf('object');
  for (const member of ['type', 'title', 'detail', 'code']) expect(typeof p![member], `${where}: member ${member}`).toBe('string');
  expect(p!['status'], where).toBe(r.status);
  expect(isRegistryCode(p!['code']), `${where}: registry code`).toBe(true);
  expect(codeFromTypeUri(p!['type']), `${where}: type names the code`).toBe(p!['code']);
  expect(getEntry(p!['code'])!.status, `${where}: the code's status`).toBe(r.status);
  expect(paramFaults(p!['code'], p!['params']), `${where}: params`).toEqual([]);
  for (const item of (p!['errors'] ?? []) as Array<Record<string, any>>) {
    expect(isRegistryCode(item['code']), `${where}: item code ${item['code']}`).toBe(true);
    expect(paramFaults(item['code'], item['params']), `${where}: item params`).toEqual([]);
  }
}

/**
 * Audits one answer of the campaign and counts it under its category: status 2xx-4xx, a registry
 * problem for every refusal, nothing of a foreign file; then what the case expects, if anything.
 */
function check(category: string, r: Reply, label: string, want?: Want | 'ok'): any {
  tally.set(category, (tally.get(category) ?? 0) + 1);
  const where = `[${category}] ${label} -> ${r.status} ${r.text.slice(0, 400)}`;
  expect(r.status, where).toBeGreaterThanOrEqual(100);
  expect(r.status, where).toBeLessThan(500);
  for (const text of NEVER_IN_ANSWERS) expect(r.text.includes(text), `${where}: leaks ${text}`).toBe(false);
  if (r.status >= 400) expectProblem(r, where);
  if (want === 'ok') expect(r.status, where).toBeLessThan(300);
  else if (want) {
    if (want.status !== undefined) expect(r.status, where).toBe(want.status);
    if (want.code !== undefined) expect(r.json?.code, where).toBe(want.code);
    if (want.params) expect(r.json?.params, where).toMatchObject(want.params);
  }
  return r.json;
}

const inv = (field: string): Want => ({ status: 422, code: 'request.invalid', params: { field } });
const malformed = (reason: 'not_json' | 'not_utf8'): Want => ({ status: 422, code: 'request.malformed', params: { reason } });
const unsupported = (field: string, reason = 'extension_member'): Want => ({ status: 422, code: 'request.unsupported', params: { field, reason } });
const packageInvalid = (reason: string, p?: string): Want => ({ status: 422, code: 'method.package_invalid', params: p === undefined ? { reason } : { reason, path: p } });

// ---------------------------------------------------------------------------------------------
// Raw HTTP: what a well-behaved client library would refuse to send

/** Writes bytes on a fresh connection (optionally in timed parts) and collects what comes back. */
function exchange(port: number, parts: Array<string | Buffer | number>, waitMs = 4000): Promise<{ raw: Buffer; closed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ raw: Buffer.concat(chunks), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else socket.write(part);
      }
    });
  });
}

/** The HTTP responses in a raw byte stream (1xx interim answers skipped). */
function responsesOf(raw: Buffer): Reply[] {
  const out: Reply[] = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [statusLine, ...lines] = raw.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
    const headers: http.IncomingHttpHeaders = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const text = raw.subarray(end + 4, end + 4 + length).toString('utf8');
    at = end + 4 + length;
    if (status >= 100 && status < 200) continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    out.push({ status, headers, text, json });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The runner as a process of its own

interface Child {
  process: ChildProcess;
  url: string;
  port: number;
  /** The file-access audit log, and its length once the runner was serving. */
  audit: string;
  auditStart: number;
  exited: Promise<number | null>;
}

async function bundleRunner(dir: string): Promise<string> {
  const out = path.join(dir, 'runner.mjs');
  await build({
    entryPoints: [path.join(__dirname, 'hostileServe.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __mthdsCreateRequire } from 'node:module'; const require = __mthdsCreateRequire(import.meta.url);" },
  });
  return out;
}

/** Temporary folders of this file, removed at the end. */
const temporary: string[] = [];

async function spawnRunner(bundle: string, config: object, cwd: string): Promise<Child> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-hostile-run-'));
  temporary.push(dir);
  const configFile = path.join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const audit = path.join(dir, 'fs-audit.log');
  writeFileSync(audit, '');
  const env: NodeJS.ProcessEnv = { ...process.env, MTHDS_FS_AUDIT: audit };
  delete env['MTHDS_RUNNER_TOKENS'];
  const child = spawn(process.execPath, ['--import', pathToFileURL(path.join(__dirname, 'fsAudit.mjs')).href, bundle, configFile], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    void exited.then((code) => reject(new Error(`the runner exited with ${code}: ${err}`)));
  });
  return { process: child, url, port: Number(new URL(url).port), audit, auditStart: readFileSync(audit).length, exited };
}

/** Resident memory of a process, in MiB: now and at its peak (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const status = readFileSync(file, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

// ---------------------------------------------------------------------------------------------
// Bodies

const ROUTES = ['execute', 'start', 'validate'] as const;
type Route = (typeof ROUTES)[number];
const RUN_ROUTES: readonly Route[] = ['execute', 'start'];

const ADA = { name: { concept: 'Text', content: 'Ada' } };
const base = (route: Route): Record<string, unknown> => (route === 'validate' ? { mthds_contents: [HELLO] } : { mthds_contents: [HELLO], inputs: ADA });
const filesBase = (route: Route, files: unknown): Record<string, unknown> => (route === 'validate' ? { files } : { files, inputs: ADA });
/** What a well-formed request of the route answers. */
const success = (route: Route): number => (route === 'start' ? 202 : 200);

/** The members each route accepts (the rest is request.unsupported). */
const ACCEPTS: Readonly<Record<Route, ReadonlySet<string>>> = {
  execute: new Set(['pipe_code', 'mthds_contents', 'inputs', 'output_name', 'output_multiplicity', 'dynamic_output_concept_ref', 'mthds_sources', 'files']),
  start: new Set(['pipe_code', 'mthds_contents', 'inputs', 'output_name', 'output_multiplicity', 'dynamic_output_concept_ref', 'mthds_sources', 'files', 'callback_url']),
  validate: new Set(['mthds_contents', 'allow_signatures', 'mthds_sources', 'files']),
};
const MEMBERS = [...new Set([...ACCEPTS.execute, ...ACCEPTS.start, ...ACCEPTS.validate])];

/** A member not accepted on a route is refused before its value is looked at. */
function wantFor(route: Route, member: string, want: Want): Want {
  if (ACCEPTS[route].has(member)) return want;
  return member === 'callback_url' ? unsupported('callback_url', 'start_only') : unsupported(member);
}

// Wrong values at every member; the failing field each names.
const WRONG: Array<{ member: string; values: unknown[]; want: Want; files?: true }> = [
  { member: 'pipe_code', values: [0, 1.5, true, [], ['greet'], {}, '', 'x'.repeat(257), 'gr\u0000eet', 'a\nb', 'greet\u007f'], want: inv('pipe_code') },
  { member: 'mthds_contents', values: ['text', 0, true, {}, [], { 0: HELLO }], want: inv('mthds_contents') },
  { member: 'mthds_contents', values: [[0], [null], [[]], [{}], [true], [[HELLO]]], want: inv('mthds_contents.0') },
  { member: 'mthds_sources', values: ['a.mthds', 0, {}, true, [], ['a.mthds', 'b.mthds']], want: inv('mthds_sources') },
  { member: 'mthds_sources', values: [[0], [''], [null], ['x'.repeat(1025)], [[]], [{}]], want: inv('mthds_sources.0') },
  { member: 'inputs', values: ['x', 0, true, [], [ADA]], want: inv('inputs') },
  { member: 'inputs', values: [{ name: 'Ada' }, { name: 0 }, { name: [] }, { name: true }, { name: null }], want: inv('inputs.name') },
  { member: 'inputs', values: [{ name: { concept: 0, content: 'x' } }, { name: { concept: '', content: 'x' } }, { name: { concept: null, content: 'x' } }, { name: { concept: ['Text'], content: 'x' } }, { name: { content: 'x' } }], want: inv('inputs.name.concept') },
  { member: 'inputs', values: [{ name: { concept: 'Text' } }], want: inv('inputs.name.content') },
  { member: 'output_name', values: [0, '', 'has space', 'x'.repeat(200), [], {}, '1abc', 'a-b'], want: inv('output_name') },
  { member: 'output_multiplicity', values: ['many', '2', 0, -1, 1.5, 1001, 1e300, {}, []], want: inv('output_multiplicity') },
  { member: 'dynamic_output_concept_ref', values: [0, '', [], {}, true], want: inv('dynamic_output_concept_ref') },
  {
    member: 'callback_url',
    values: [0, '', 'not a url', '/relative', 'ftp://93.184.216.34/', 'javascript:alert(1)', 'file:///etc/passwd', 'http://user:pw@93.184.216.34/', `http://93.184.216.34/${'a'.repeat(2100)}`, {}, []],
    want: inv('callback_url'),
  },
  { member: 'allow_signatures', values: ['yes', 1, 0, [], {}], want: inv('allow_signatures') },
  { member: 'files', values: ['x', 0, true, [], [['a.mthds', HELLO]]], want: inv('files'), files: true },
  { member: 'files', values: [{ 'a.mthds': 0 }, { 'a.mthds': true }, { 'a.mthds': [] }, { 'a.mthds': {} }, { 'a.mthds': null }], want: inv('files.a.mthds'), files: true },
  { member: 'files', values: [{ 'a.mthds': { sha256: 0 } }, { 'a.mthds': { sha256: 'A'.repeat(64) } }, { 'a.mthds': { sha256: 'x' } }, { 'a.mthds': { sha256: null } }], want: inv('files.a.mthds.sha256'), files: true },
];

// Keys of a files map that are not paths of a tree, and the reason each is refused for.
const BAD_KEYS: Array<[string, string]> = [
  ['../up.mthds', 'leaves_tree'],
  ['a/../../up.mthds', 'leaves_tree'],
  ['a/b/../../../up.mthds', 'leaves_tree'],
  ['..', 'leaves_tree'],
  ['a/..', 'leaves_tree'],
  ['/etc/passwd', 'absolute'],
  ['/etc/x.mthds', 'absolute'],
  ['//server/share/x.mthds', 'absolute'],
  ['\\\\server\\share\\x.mthds', 'backslash'],
  ['a\\b.mthds', 'backslash'],
  ['..\\up.mthds', 'backslash'],
  ['c:\\windows\\win.ini', 'backslash'],
  ['C:/x.mthds', 'scheme'],
  ['C:x.mthds', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['file:x.mthds', 'scheme'],
  ['https://example.com/x.mthds', 'scheme'],
  ['data:,x', 'scheme'],
  ['a\u0000.mthds', 'unloadable_name'],
  ['a\n.mthds', 'unloadable_name'],
  ['a\u007f.mthds', 'unloadable_name'],
  ['a\u001b[31m.mthds', 'unloadable_name'],
  ['', 'empty_path'],
  ['a//b.mthds', 'not_normalized'],
  ['./a.mthds', 'not_normalized'],
  ['a/./b.mthds', 'not_normalized'],
  ['a/', 'not_normalized'],
  ['a/.', 'not_normalized'],
  [`${'a'.repeat(1100)}.mthds`, 'unloadable_name'],
  [`${'d/'.repeat(600)}x.mthds`, 'unloadable_name'],
  [`${'x'.repeat(300)}.mthds`, 'unloadable_name'],
  [`${'é'.repeat(130)}.mthds`, 'unloadable_name'],
];

/** The `path` param as the runner reports it (control characters replaced, bounded). */
function reportedPath(key: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = key.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 256 ? `${clean.slice(0, 255)}…` : clean;
}

const DOC_GEN = (ref: string): string => `domain = "docs"
description = "Docs"
main_pipe = "render"

[pipe.render]
type = "PipeDocGen"
description = "Render a report"
inputs = { report = "Text" }
output = "Document"
format = "pptx"
template_file = ${JSON.stringify(ref)}
`;

// ---------------------------------------------------------------------------------------------
// The main campaign: one runner process

const LIMITS = {
  max_body_bytes: 256 * 1024,
  max_body_bytes_in_flight: 64 * 1024 * 1024,
  max_files: 16,
  max_file_bytes: 32 * 1024,
  max_json_depth: 32,
  body_timeout_ms: 1500,
  run_timeout_seconds: 20,
};

let child: Child;
let url: string;
let outside: { dir: string; secret: string; link: string; cwd: string };
let startMemory: { rss: number; peak: number } | undefined;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-hostile-'));
  temporary.push(dir);
  // A file outside any tree, and a working folder whose names lead to it through symbolic links:
  // a runner reading anything from disk for a request would find these.
  const secretDir = path.join(dir, 'outside');
  mkdirSync(secretDir);
  const secret = path.join(secretDir, 'secret.txt');
  writeFileSync(secret, `${SECRET}\n`);
  const cwd = path.join(dir, 'cwd');
  mkdirSync(path.join(cwd, 'bundles'), { recursive: true });
  const link = path.join(cwd, 'bundles', 'hello.mthds');
  symlinkSync(secret, link);
  symlinkSync(secret, path.join(cwd, 'template.pptx'));
  symlinkSync(secretDir, path.join(cwd, 'templates'));
  symlinkSync(secret, path.join(cwd, 'METHODS.toml'));
  outside = { dir, secret, link, cwd };
  const bundle = await bundleRunner(dir);
  child = await spawnRunner(bundle, { port: 0, limits: LIMITS }, cwd);
  url = child.url;
  startMemory = memoryOf(child.process.pid!);
});

afterAll(async () => {
  if (child) {
    child.process.kill('SIGTERM');
    await child.exited;
  }
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  const lines = [...tally].map(([category, n]) => `  ${category}: ${n}`);
  const total = [...tally.values()].reduce((a, b) => a + b, 0);
  console.log(`hostile campaign: ${total} audited answers\n${lines.join('\n')}`);
});

describe('hostile input: malformed JSON', () => {
  const BODIES: Array<[string, string | Buffer]> = [
    ['empty body', ''],
    ['whitespace only', ' \r\n\t '],
    ['truncated object', '{"mthds_contents": ["x"'],
    ['truncated string', '{"mthds_contents": ["x'],
    ['truncated escape', '{"mthds_contents": ["\\u12'],
    ['truncated literal', '{"allow_signatures": tru'],
    ['trailing garbage', '{} x'],
    ['two documents', '{}{}'],
    ['trailing comma', '{"mthds_contents": ["x"],}'],
    ['single quotes', "{'mthds_contents': ['x']}"],
    ['unquoted key', '{mthds_contents: ["x"]}'],
    ['comment', '{/* c */ "mthds_contents": ["x"]}'],
    ['line comment', '{"mthds_contents": ["x"] // c\n}'],
    ['NaN', '{"output_multiplicity": NaN}'],
    ['Infinity', '{"output_multiplicity": Infinity}'],
    ['-Infinity', '{"output_multiplicity": -Infinity}'],
    ['hex number', '{"output_multiplicity": 0x10}'],
    ['leading zero', '{"output_multiplicity": 01}'],
    ['plus sign', '{"output_multiplicity": +1}'],
    ['undefined', '{"pipe_code": undefined}'],
    ['raw control character in a string', '{"pipe_code": "a\u0001b"}'],
    ['raw newline in a string', '{"pipe_code": "a\nb"}'],
    ['bad escape', '{"pipe_code": "\\x41"}'],
    ['NUL after the object', '{}\u0000'],
    ['unbalanced', '{"inputs": {"name": {"concept": "Text", "content": ["x"}}}'],
    ['only a key', '{"mthds_contents"}'],
    ['JSON with a BOM twice', '\uFEFF\uFEFF{}'],
    ['UTF-16LE without BOM', Buffer.from('{"mthds_contents": []}', 'utf16le')],
    ['array', '[]'],
    ['array of the body', JSON.stringify([{ mthds_contents: [HELLO] }])],
    ['string', '"{}"'],
    ['number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ];

  it.each(ROUTES)('refuses bodies that are not a JSON object on /%s with request.malformed (not_json)', async (route) => {
    for (const [label, body] of BODIES) check('malformed-json', await post(`${url}/${route}`, body), `${route} ${label}`, malformed('not_json'));
  });

  it.each(ROUTES)('reads one BOM and duplicate members the way JSON.parse does on /%s', async (route) => {
    const ok = JSON.stringify(base(route));
    check('malformed-json', await post(`${url}/${route}`, `\uFEFF${ok}`), `${route} BOM`, { status: success(route) });
    // The last of duplicate members wins, whichever member it is.
    const dupOk = `{"mthds_contents": 7, ${ok.slice(1)}`;
    check('malformed-json', await post(`${url}/${route}`, dupOk), `${route} duplicate, last good`, { status: success(route) });
    const dupBad = `${ok.slice(0, -1)}, "mthds_contents": 7}`;
    check('malformed-json', await post(`${url}/${route}`, dupBad), `${route} duplicate, last bad`, inv('mthds_contents'));
    // Numbers JSON.parse turns into Infinity or rounds.
    if (route !== 'validate') {
      check('malformed-json', await post(`${url}/${route}`, `${ok.slice(0, -1)}, "output_multiplicity": 1e999}`), `${route} 1e999`, inv('output_multiplicity'));
      check('malformed-json', await post(`${url}/${route}`, `${ok.slice(0, -1)}, "output_multiplicity": 123456789012345678901234567890}`), `${route} huge integer`, inv('output_multiplicity'));
      const inf = JSON.stringify({ ...base(route), inputs: { name: { concept: 'Text', content: 'Ada' } } }).replace('"Ada"', '1e999');
      check('malformed-json', await post(`${url}/${route}`, inf), `${route} content 1e999`, { status: 422, code: 'input.invalid' });
    }
  });
});

describe('hostile input: wrong types at every member', () => {
  it.each(ROUTES)('names the failing field of every wrong value on /%s', async (route) => {
    for (const { member, values, want, files } of WRONG) {
      for (const value of values) {
        const body = files ? filesBase(route, value) : { ...base(route), [member]: value };
        const label = `${route} ${member}=${JSON.stringify(value)?.slice(0, 60)}`;
        check('wrong-types', await post(`${url}/${route}`, body), label, wantFor(route, member, want));
      }
    }
  });

  it.each(ROUTES)('refuses members of no route, whatever their name, on /%s', async (route) => {
    const ok = JSON.stringify(base(route));
    const cases: Array<[string, string]> = [
      ['extra', 'extra'],
      ['PIPE_CODE', 'PIPE_CODE'],
      ['__proto__', '__proto__'],
      ['constructor', 'constructor'],
      ['toString', 'toString'],
      ['', 'body'],
      ['a\u0000b', 'a?b'],
      ['x'.repeat(300), `${'x'.repeat(255)}…`],
      ['pipeline_run_id', 'pipeline_run_id'],
      // The idempotency key travels in the Idempotency-Key header only.
      ['idempotency_key', 'idempotency_key'],
      ['Idempotency-Key', 'Idempotency-Key'],
    ];
    for (const [name, field] of cases) {
      const body = `{${JSON.stringify(name)}: {"a": 1}, ${ok.slice(1)}`;
      check('wrong-types', await post(`${url}/${route}`, body), `${route} member ${JSON.stringify(name).slice(0, 40)}`, unsupported(field));
    }
  });

  it('treats input names that are members of Object.prototype as names (no 500, no prototype)', async () => {
    const ctor = HELLO.replace('inputs = { name = "Text" }', 'inputs = { constructor = "Text" }').replace('$name', '$constructor');
    // Was a 500: the missing input `constructor` was found on Object.prototype.
    check('wrong-types', await post(`${url}/execute`, { mthds_contents: [ctor] }), 'constructor missing', { status: 422, code: 'input.missing', params: { input: 'constructor' } });
    check('wrong-types', await post(`${url}/execute`, { mthds_contents: [ctor], inputs: { constructor: { concept: 'Text', content: 'Ada' } } }), 'constructor given', 'ok');
    check('wrong-types', await post(`${url}/execute`, { mthds_contents: [HELLO], inputs: { ...ADA, constructor: { concept: 'Text', content: 'x' } } }), 'constructor extra', { status: 422, code: 'input.unexpected', params: { input: 'constructor' } });
    // Was a 200: `__proto__` replaced the prototype of the inputs and escaped input.unexpected.
    const proto = `{"mthds_contents": ${JSON.stringify([HELLO])}, "inputs": {"name": {"concept": "Text", "content": "Ada"}, "__proto__": {"concept": "Text", "content": "x"}}}`;
    check('wrong-types', await post(`${url}/execute`, proto), '__proto__ input', { status: 422, code: 'input.unexpected', params: { input: '__proto__' } });
    const hidden = `{"mthds_contents": ${JSON.stringify([HELLO])}, "inputs": {"__proto__": {"name": {"concept": "Text", "content": "Ada"}, "concept": "Text", "content": "x"}}}`;
    check('wrong-types', await post(`${url}/execute`, hidden), '__proto__ carrying name', { status: 422 });
    const protoFile = `{"files": {"a.mthds": ${JSON.stringify(HELLO)}, "__proto__": "x"}, "inputs": {"name": {"concept": "Text", "content": "Ada"}}}`;
    check('wrong-types', await post(`${url}/execute`, protoFile), '__proto__ file', 'ok');
  });
});

describe('hostile input: generated bodies (fast-check, fixed seeds)', () => {
  const member = fc.constantFrom(...MEMBERS, 'extra', '__proto__', 'constructor');
  const bundleText = fc.oneof(fc.constant(HELLO), fc.string({ maxLength: 40 }), fc.constant(DOC_GEN('../x')), fc.constant(`${HELLO}\n[pipe.x]\ntype = 3\n`));
  const inputs = fc.dictionary(
    fc.oneof(fc.constantFrom('name', 'constructor', '__proto__', 'toString'), fc.string({ maxLength: 8 })),
    fc.oneof(fc.record({ concept: fc.oneof(fc.constantFrom('Text', 'Image', 'Document', 'native.JSON', 'Page', 'Nope', 'Text[]'), fc.string({ maxLength: 10 })), content: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 2 })),
    { maxKeys: 3 },
  );
  const files = fc.dictionary(fc.oneof(fc.constantFrom('a.mthds', 'METHODS.toml', '../x.mthds', 'a/b.mthds', 'a', '/x', 'C:\\x'), fc.string({ maxLength: 12, unit: 'binary' })), fc.oneof(bundleText, fc.jsonValue({ maxDepth: 1 })), { maxKeys: 4 });
  const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.array(bundleText, { maxLength: 3 }), inputs, files, bundleText);
  const body = fc.dictionary(member, value, { maxKeys: 5 });

  it('answers random bodies on every route with a 2xx or a registry problem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, async (route, b) => {
        check('generated', await post(`${url}/${route}`, b), `${route} ${JSON.stringify(b).slice(0, 200)}`);
      }),
      { seed: 0x4d7448, numRuns: 300 },
    );
  });

  it('answers valid bodies with one member replaced by anything', async () => {
    const paths: Array<{ route: Route; path: Array<string | number>; files?: true }> = [
      ...ROUTES.flatMap((route) => [{ route, path: ['mthds_contents', 0] }, { route, path: ['mthds_contents'] }]),
      ...RUN_ROUTES.flatMap((route) => [{ route, path: ['inputs', 'name', 'content'] }, { route, path: ['inputs', 'name', 'concept'] }, { route, path: ['inputs', 'name'] }, { route, path: ['inputs'] }, { route, path: ['pipe_code'] }]),
      ...ROUTES.map((route) => ({ route, path: ['files', 'a.mthds'], files: true as const })),
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), async ({ route, path: at, files: isFiles }, replacement) => {
        const b = structuredClone(isFiles ? filesBase(route, { 'a.mthds': HELLO }) : base(route)) as Record<string, any>;
        let target = b;
        for (const key of at.slice(0, -1)) target = target[key as string];
        target[at[at.length - 1] as string] = replacement;
        check('generated', await post(`${url}/${route}`, b), `${route} ${at.join('.')}=${JSON.stringify(replacement).slice(0, 120)}`);
      }),
      { seed: 0x6d7468, numRuns: 200 },
    );
  });

  it('answers random bytes and random text as bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.oneof(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), fc.string({ maxLength: 300, unit: 'binary' }), fc.json({ maxDepth: 4 })), async (route, b) => {
        check('generated', await post(`${url}/${route}`, b), `${route} raw ${JSON.stringify(typeof b === 'string' ? b : b.toString('hex')).slice(0, 120)}`);
      }),
      { seed: 0x68747470, numRuns: 150 },
    );
  });
});

describe('hostile input: huge and deep bodies', () => {
  it.each(ROUTES)('bounds the body of /%s: declared, streamed, exactly at the limit and one byte past it', async (route) => {
    // Refused on the declared length, before the body is read; the connection is closed after the
    // answer (a client still writing may see it reset: the answer is read off a raw socket).
    const payload = JSON.stringify({ mthds_contents: ['x'.repeat(LIMITS.max_body_bytes)] });
    const { raw } = await exchange(child.port, [`POST /v1/${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n`, payload], 4000);
    const [declared] = responsesOf(raw);
    check('size', declared!, `${route} declared over`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_body_bytes, size: Buffer.byteLength(payload) } });
    expect(declared!.headers['connection']).toBe('close');

    // An ordinary client still writing its body reads the answer (the runner lingers on close
    // rather than resetting the connection under it).
    for (let i = 0; i < 5; i++) {
      check('size', await post(`${url}/${route}`, `${payload}${' '.repeat(i * 50_000)}`), `${route} declared over, ordinary client #${i}`, { status: 413, code: 'request.too_large' });
    }

    // Streamed (chunked, no declared length): refused as soon as the bound is passed; the rest of
    // a body that ends soon after is read and dropped, so that the client reads the answer.
    const piece = `4000\r\n${'a'.repeat(0x4000)}\r\n`;
    const chunked = await exchange(child.port, [`POST /v1/${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n15\r\n{"mthds_contents": ["\r\n`, ...Array<string>(24).fill(piece), '0\r\n\r\n'], 4000);
    const streamed = responsesOf(chunked.raw)[0]!;
    check('size', streamed, `${route} streamed over`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_body_bytes } });
    expect(streamed.json.params.size).toBeLessThan(LIMITS.max_body_bytes + 0x4000 * 2);

    const body = JSON.stringify(base(route));
    const exact = body + ' '.repeat(LIMITS.max_body_bytes - Buffer.byteLength(body));
    check('size', await post(`${url}/${route}`, exact), `${route} exactly at the limit`, { status: success(route) });
    const over = await exchange(child.port, [`POST /v1/${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${LIMITS.max_body_bytes + 1}\r\n\r\n`, `${exact} `], 4000);
    check('size', responsesOf(over.raw)[0]!, `${route} one byte over`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_body_bytes, size: LIMITS.max_body_bytes + 1 } });
  });

  it.each(ROUTES)('bounds files, their count and their size on /%s (file bombs)', async (route) => {
    const big = `${HELLO}#${'x'.repeat(LIMITS.max_file_bytes)}`;
    check('size', await post(`${url}/${route}`, { ...base(route), mthds_contents: [big] }), `${route} bundle over the file bound`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_file_bytes } });
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, 'big.txt': big })), `${route} file over the file bound`, { status: 422, code: 'method.package_invalid', params: { reason: 'file_too_large', path: 'big.txt', limit: LIMITS.max_file_bytes } });
    check('size', await post(`${url}/${route}`, { ...base(route), mthds_contents: Array(LIMITS.max_files + 1).fill(HELLO) }), `${route} one bundle too many`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_files, size: LIMITS.max_files + 1 } });
    const bomb = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`f/${i}`, '']));
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, ...bomb })), `${route} 8000 tiny files`, { status: 422, code: 'method.package_invalid', params: { reason: 'too_many_files', limit: LIMITS.max_files } });
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, 'A.mthds': HELLO })), `${route} names differing by case`, { status: 422, code: 'method.package_invalid', params: { reason: 'clashing_names', path: 'A.mthds' } });
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, 'Docs/x.txt': 'x', 'docs/y.txt': 'y' })), `${route} folders differing by case`, { status: 422, code: 'method.package_invalid', params: { reason: 'clashing_names', path: 'docs' } });
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, 'caf\u00e9.txt': 'x', 'cafe\u0301.txt': 'y' })), `${route} names differing by Unicode form`, { status: 422, code: 'method.package_invalid', params: { reason: 'clashing_names' } });
    const sixteen = Object.fromEntries(Array.from({ length: LIMITS.max_files - 1 }, (_, i) => [`d${i}/${'n'.repeat(200)}.txt`, 'y'.repeat(LIMITS.max_file_bytes - 1)]));
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, ...sixteen })), `${route} files up to every bound`, { status: 413, code: 'request.too_large', params: { limit: LIMITS.max_body_bytes } });
    const within = Object.fromEntries(Array.from({ length: LIMITS.max_files - 1 }, (_, i) => [`d${i}/notes.txt`, 'y'.repeat(1000)]));
    check('size', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, ...within })), `${route} many small files within the bounds`, { status: success(route) });
  });

  it.each(ROUTES)('refuses JSON nested past the bound on /%s, however deep', async (route) => {
    const ok = JSON.stringify(base(route));
    for (const depth of [LIMITS.max_json_depth, LIMITS.max_json_depth + 1, 1000, 100_000]) {
      const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const r = await post(`${url}/${route}`, `${ok.slice(0, -1)}, "mthds_sources": ${nested}}`);
      check('depth', r, `${route} arrays ${depth}`, depth + 1 > LIMITS.max_json_depth ? { status: 422, code: 'request.invalid' } : undefined);
    }
    const objects = `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`;
    check('depth', await post(`${url}/${route}`, `${ok.slice(0, -1)}, "extra": ${objects}}`), `${route} objects 40000`, { status: 422 });
    const content = `${'{"a":'.repeat(50)}"x"${'}'.repeat(50)}`;
    if (route !== 'validate') check('depth', await post(`${url}/${route}`, ok.replace('"Ada"', content)), `${route} deep input content`, inv(`inputs.name.content.${'a.'.repeat(29)}a`.split('.').slice(0, 8).join('.')));
  });

  it('takes wide bodies within the bounds without a fault', async () => {
    const wide = { ...base('execute'), inputs: { name: { concept: 'Text', content: 'x'.repeat(200_000) } } };
    check('size', await post(`${url}/execute`, wide), 'long input', 'ok');
    const array = { ...base('execute'), inputs: { name: { concept: 'Text', content: Array(50_000).fill(0) } } };
    check('size', await post(`${url}/execute`, array), 'wide array input', { status: 422, code: 'input.wrong_multiplicity' });
    const many = { mthds_contents: [HELLO], inputs: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`n${i}`, { concept: 'Text', content: 'x' }])) };
    const r = check('size', await post(`${url}/execute`, many), '5000 inputs', { status: 422, code: 'input.missing' });
    expect(r.errors.length).toBeLessThanOrEqual(100);
    const keys = { ...base('validate'), mthds_contents: [`domain = "w"\ndescription = "W"\n${Array.from({ length: 800 }, (_, i) => `[concept.C${i}]\ndescription = "c"\n`).join('')}`] };
    check('size', await post(`${url}/validate`, keys), 'a bundle of 800 concepts', 'ok');
  });

  it('survives bundle texts built to exhaust the parsers', async () => {
    const texts = [
      `x = ${'['.repeat(15_000)}`,
      `x = ${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      `x = ${'{a='.repeat(8_000)}`,
      `${'[a.'.repeat(3000)}b]`,
      `x = "${'\\u0041'.repeat(5000)}"`,
      `x = """${'"'.repeat(10_000)}`,
      HELLO.replace('Say hello to $name.', `{{ ${'('.repeat(4000)}name${')'.repeat(4000)} }}`),
      HELLO.replace('Say hello to $name.', `${'{% if name %}'.repeat(1000)}x${'{% endif %}'.repeat(1000)}`),
      HELLO.replace('Say hello to $name.', '{% for i in range(100000000) %}{{ name }}{% endfor %}'),
      HELLO.replace('Say hello to $name.', "{% set s = 'xxxxxxxxxx' %}{% for i in range(40) %}{% set s = s ~ s %}{% endfor %}{{ s|length }} {{ name }}"),
      HELLO.replace('Say hello to $name.', '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }} {{ name }}'),
      '\u0000'.repeat(20_000),
      `domain = "x"\n${'#'.repeat(30_000)}`,
    ];
    for (const [i, text] of texts.entries()) {
      check('parsers', await post(`${url}/validate`, { mthds_contents: [text] }), `validate text #${i}`, 'ok');
      check('parsers', await post(`${url}/execute`, { mthds_contents: [text], inputs: ADA }), `execute text #${i}`);
    }
  });
});

describe('hostile input: invalid UTF-8', () => {
  const SEQUENCES: Array<[string, number[]]> = [
    ['0xFF', [0xff]],
    ['0xFE', [0xfe]],
    ['lone continuation', [0x80]],
    ['overlong slash', [0xc0, 0xaf]],
    ['overlong NUL', [0xc0, 0x80]],
    ['overlong 3 bytes', [0xe0, 0x80, 0xaf]],
    ['UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['5-byte form', [0xf8, 0x88, 0x80, 0x80, 0x80]],
    ['truncated 2-byte', [0xc3]],
    ['truncated 4-byte', [0xf0, 0x9f, 0x98]],
  ];
  const PLACES: Array<[string, (bad: Buffer, route: Route) => Buffer]> = [
    ['bundle text', (bad, route) => Buffer.concat([Buffer.from(`${JSON.stringify(base(route)).slice(0, -1)}, "mthds_sources": ["a`), bad, Buffer.from('.mthds"]}')])],
    ['inside the bundle', (bad) => Buffer.concat([Buffer.from('{"mthds_contents": ["domain = \\"x\\"\\n# '), bad, Buffer.from(' \\n"]}')])],
    ['member name', (bad, route) => Buffer.concat([Buffer.from('{"x'), bad, Buffer.from(`": 1, ${JSON.stringify(base(route)).slice(1)}`)])],
    ['files key', (bad) => Buffer.concat([Buffer.from(`{"files": {"a.mthds": ${JSON.stringify(HELLO)}, "b`), bad, Buffer.from('.mthds": "x"}}')])],
    ['input content', (bad) => Buffer.concat([Buffer.from(`{"mthds_contents": ${JSON.stringify([HELLO])}, "inputs": {"name": {"concept": "Text", "content": "A`), bad, Buffer.from('"}}}')])],
    ['outside strings', (bad) => Buffer.concat([Buffer.from('{"mthds_contents": '), bad, Buffer.from(`${JSON.stringify([HELLO])}}`)])],
  ];

  it.each(ROUTES)('refuses every invalid sequence in every place on /%s with request.malformed (not_utf8)', async (route) => {
    for (const [what, bytes] of SEQUENCES) {
      for (const [where, make] of PLACES) {
        check('utf8', await post(`${url}/${route}`, make(Buffer.from(bytes), route)), `${route} ${what} in ${where}`, malformed('not_utf8'));
      }
    }
  });

  it.each(ROUTES)('refuses escaped lone surrogates anywhere on /%s', async (route) => {
    const ok = JSON.stringify(base(route));
    for (const s of ['\\ud800', '\\udfff', '\\ud800\\u0041', 'x\\udc00', '\\udbff\\udbff']) {
      check('utf8', await post(`${url}/${route}`, `${ok.slice(0, -1)}, "mthds_sources": ["${s}"]}`), `${route} ${s} in a value`, malformed('not_utf8'));
      check('utf8', await post(`${url}/${route}`, `{"${s}": 1, ${ok.slice(1)}`), `${route} ${s} in a member name`, malformed('not_utf8'));
      check('utf8', await post(`${url}/${route}`, `{"files": {"a.mthds": ${JSON.stringify(HELLO)}, "${s}.mthds": "x"}}`), `${route} ${s} in a files key`, malformed('not_utf8'));
      check('utf8', await post(`${url}/${route}`, `{"mthds_contents": ["domain = \\"${s}\\""]}`), `${route} ${s} in a bundle`, malformed('not_utf8'));
    }
  });

  it('takes what is valid UTF-8, however unusual, and refuses other charsets', async () => {
    const odd = [`${HELLO}# \u{1F600} \uFFFF \uFFFE \u202E \u200B\n`, `\uFEFF${HELLO}`, HELLO.replace(/\n/g, '\r\n'), `${HELLO}# \\ud800 is not an escape in a comment\n`];
    for (const text of odd) check('utf8', await post(`${url}/validate`, { mthds_contents: [text] }), `valid ${JSON.stringify(text.slice(-30))}`, 'ok');
    const pair = `{"mthds_contents": [${JSON.stringify(HELLO).slice(0, -1)}# \\ud83d\\ude00\\n"]}`;
    check('utf8', await post(`${url}/validate`, pair), 'escaped surrogate pair', 'ok');
    for (const charset of ['iso-8859-1', 'utf-16', 'utf-32', 'latin1', 'x']) {
      check('utf8', await post(`${url}/validate`, JSON.stringify(base('validate')), { 'Content-Type': `application/json; charset=${charset}` }), `charset ${charset}`, { status: 422, code: 'request.unsupported', params: { field: 'Content-Type', reason: 'charset' } });
    }
    check('utf8', await post(`${url}/validate`, JSON.stringify(base('validate')), { 'Content-Type': 'application/json; charset="UTF-8"' }), 'quoted charset', 'ok');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json, text/plain', 'application/jsonx', '']) {
      check('utf8', await post(`${url}/validate`, JSON.stringify(base('validate')), { 'Content-Type': type }), `content type ${JSON.stringify(type)}`, type === '' ? undefined : { status: 422, code: 'request.unsupported' });
    }
    // Issue 32: a compressed body is a form the runner does not support (it was answered as bad JSON).
    check('utf8', await post(`${url}/validate`, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]), { 'Content-Encoding': 'gzip' }), 'gzip bytes', { status: 422, code: 'request.unsupported' });
  });
});

describe('hostile input: paths that leave the tree', () => {
  it.each(ROUTES)('refuses files keys that are not paths of a tree on /%s, naming the reason', async (route) => {
    for (const [key, reason] of BAD_KEYS) {
      const body = filesBase(route, { 'ok.mthds': HELLO, [key]: HELLO });
      const r = check('paths', await post(`${url}/${route}`, body), `${route} key ${JSON.stringify(key).slice(0, 50)}`, packageInvalid(reason, key === '' ? undefined : reportedPath(key)));
      if (key === '') expect(r.params.path).toBeUndefined();
    }
    // A name that is both a file and a folder is no tree.
    check('paths', await post(`${url}/${route}`, filesBase(route, { a: 'x', 'a/b.mthds': HELLO })), `${route} file and folder`, packageInvalid('not_a_tree', 'a'));
    check('paths', await post(`${url}/${route}`, filesBase(route, { 'a.mthds': HELLO, 'a.mthds/b.mthds': HELLO })), `${route} bundle and folder`, packageInvalid('not_a_tree', 'a.mthds'));
  });

  it.each(ROUTES)('takes odd but legal names on /%s as the literal names they are', async (route) => {
    for (const key of ['%2e%2e/x.mthds', 'a..b.mthds', '...mthds', ' space .mthds', 'ünï/cödé.mthds', 'CON/NUL.mthds', 'x'.repeat(249) + '.mthds', '__proto__.mthds', 'constructor.mthds']) {
      check('paths', await post(`${url}/${route}`, filesBase(route, { [key]: HELLO })), `${route} legal ${JSON.stringify(key).slice(0, 40)}`, { status: success(route) });
    }
  });

  it('refuses file references of a bundle that leave the tree, without opening anything', async () => {
    const refs: Array<[string, string[]]> = [
      ['../../../../../../etc/passwd', ['leaves_tree']],
      // Each text of mthds_contents sits in a folder of its own under the request root, so one
      // level up is still inside the request (no file there: not_in_tree).
      ['templates/../../x.pptx', ['leaves_tree', 'not_in_tree']],
      ['/etc/passwd', ['absolute']],
      ['', []],
      ['C:/Windows/win.ini', ['absolute', 'scheme']],
      ['C:\\Windows\\win.ini', ['backslash']],
      ['..\\..\\x.pptx', ['backslash']],
      ['file:///etc/passwd', ['scheme']],
      ['https://example.com/t.pptx', ['scheme']],
      ['missing.pptx', ['not_in_tree']],
      // Names that exist in the runner's working folder, as symbolic links to the secret file.
      ['template.pptx', ['not_in_tree']],
      ['templates/secret.txt', ['not_in_tree']],
      [outside.secret, ['absolute']],
      [outside.link, ['absolute']],
    ];
    for (const [ref, reasons] of refs) {
      const verdict = check('references', await post(`${url}/validate`, { mthds_contents: [DOC_GEN(ref)] }), `validate template_file ${ref}`, 'ok');
      expect(verdict.is_valid).toBe(false);
      if (reasons.length > 0) {
        const found = (verdict.validation_errors as Array<Record<string, any>>).filter((e) => e['code'] === 'method.resource_missing');
        expect(found, `template_file ${ref}: ${JSON.stringify(verdict.validation_errors).slice(0, 400)}`).toHaveLength(1);
        expect(reasons, ref).toContain(found[0]!['params']?.['reason']);
      }
      const run = check('references', await post(`${url}/execute`, { mthds_contents: [DOC_GEN(ref)], inputs: { report: { concept: 'Text', content: 'x' } } }), `execute template_file ${ref}`, { status: 422, code: 'method.invalid' });
      if (reasons.length > 0) expect(run.errors.map((e: any) => e.code)).toContain('method.resource_missing');
      const inFiles = check('references', await post(`${url}/execute`, { files: { 'docs.mthds': DOC_GEN(ref) }, inputs: { report: { concept: 'Text', content: 'x' } } }), `files template_file ${ref}`, { status: 422 });
      if (reasons.length > 0) expect(JSON.stringify(inFiles)).toContain('method.resource_missing');
    }
    // A reference to a file the request carries is found in the request, not on disk.
    const ok = check('references', await post(`${url}/validate`, { files: { 'docs.mthds': DOC_GEN('template.pptx'), 'template.pptx': 'not a real pptx' } }), 'reference in the tree', 'ok');
    expect(JSON.stringify(ok)).not.toContain('method.resource_missing');
  });

  it('reads no file of its working folder for a request, symbolic links included', async () => {
    // The runner's working folder holds bundles/hello.mthds, METHODS.toml and template.pptx as
    // symbolic links to the secret file: requests naming those paths get the texts they carry.
    const run = check('disk', await post(`${url}/execute`, { files: { 'bundles/hello.mthds': HELLO }, inputs: ADA }), 'files naming a symlinked path', 'ok');
    expect(run.pipe_output.working_memory.root.main_stuff.content.text).toContain('Say hello to Ada');
    check('disk', await post(`${url}/execute`, { files: { 'METHODS.toml': '[package]\nname = "x"\n', 'bundles/hello.mthds': HELLO }, inputs: ADA }), 'a manifest over a symlinked one');
    check('disk', await post(`${url}/execute`, { files: { [outside.link]: HELLO }, inputs: ADA }), 'absolute symlink path', packageInvalid('absolute'));
    check('disk', await post(`${url}/execute`, { files: { [outside.secret]: HELLO }, inputs: ADA }), 'absolute secret path', packageInvalid('absolute'));
    check('disk', await post(`${url}/execute`, { files: { [path.relative(outside.cwd, outside.secret)]: HELLO }, inputs: ADA }), 'relative path out of the working folder', packageInvalid('leaves_tree'));
    // mthds_sources only name the texts: a path there is a label, never opened.
    const named = check('disk', await post(`${url}/validate`, { mthds_contents: ['domain = 3'], mthds_sources: [outside.secret] }), 'a source named after the secret', 'ok');
    expect(named.is_valid).toBe(false);
    check('disk', await post(`${url}/validate`, { mthds_contents: ['domain = 3'], mthds_sources: [outside.link] }), 'a source named after the link', 'ok');
    check('disk', await post(`${url}/validate`, { mthds_contents: [HELLO], mthds_sources: ['../../../../etc/passwd'] }), 'a source named after /etc/passwd', 'ok');
    check('disk', await post(`${url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: { text: outside.secret } } } }), 'an input naming the secret', 'ok');
  });
});

describe('hostile input: raw HTTP', () => {
  const CASES: Array<[string, Array<string | Buffer | number>]> = [
    ['garbage', ['GARBAGE\r\n\r\n']],
    ['binary garbage', [randomBytes(64)]],
    ['invalid method token', ['G{}T /v1/models HTTP/1.1\r\nHost: x\r\n\r\n']],
    ['unknown method', ['PATCH /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['HTTP/1.0', ['GET /v1/version HTTP/1.0\r\n\r\n']],
    ['HTTP/2 preface', ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']],
    ['asterisk target', ['OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['absolute-form target', ['GET http://evil.example/v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['dot segments', ['GET /v1/../v1/./models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['encoded dot segments', ['GET /v1/%2e%2e/v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['NUL in the path', ['GET /v1/models%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['long path', [`GET /v1/${'a'.repeat(12_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]],
    ['header overflow', [`GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]],
    ['many headers', [`GET /v1/models HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-${i}: y\r\n`).join('')}Connection: close\r\n\r\n`]],
    ['NUL in a header', ['GET /v1/models HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n']],
    ['bare LF', ['GET /v1/models HTTP/1.1\nHost: x\n\n']],
    ['bad Content-Length', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}']],
    ['negative Content-Length', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}']],
    ['two Content-Lengths', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}']],
    ['Content-Length and chunked', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n']],
    ['bad chunk size', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n']],
    ['unknown transfer coding', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n']],
    ['a body shorter than declared, then more requests', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"mthds_contents": []}GET /v1/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['a body on GET', ['GET /v1/models HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello']],
    ['expect 100-continue', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: 2\r\n\r\n', 100, '{}']],
    ['expect something else', ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}']],
    ['pipelined requests', ['GET /v1/version HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/models HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}']],
    ['request smuggled after a refusal', ['POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\nGET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n']],
  ];

  it.each(CASES)('answers %s with a registry problem or closes the connection', async (label, parts) => {
    const { raw, closed } = await exchange(child.port, parts, 4000);
    const replies = responsesOf(raw);
    for (const [i, reply] of replies.entries()) check('http', reply, `${label} #${i}`);
    // Either an answer, or a connection the runner closed.
    expect(replies.length > 0 || closed, `${label}: ${raw.toString('latin1').slice(0, 200)}`).toBe(true);
  });

  it('answers the unauthenticated part of a protocol route before its body is sent', async () => {
    const { raw } = await exchange(child.port, ['POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a":'], 3000);
    const [reply] = responsesOf(raw);
    check('http', reply!, 'unknown route with a huge declared body', { status: 404, code: 'request.not_found' });
    expect(reply!.headers['connection']).toBe('close');
  });
});

describe('hostile input: slow clients', () => {
  it('drops a body that trickles in, and keeps serving other clients meanwhile', async () => {
    const slow = exchange(child.port, ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{', ...Array.from({ length: 40 }, (_, i) => [200, i % 2 ? ' ' : '\t']).flat()], 15_000);
    let settled = false;
    void slow.then(() => (settled = true));
    for (let i = 0; i < 10 || !settled; i++) {
      const t = Date.now();
      check('slow', await get(`${url}/version`), 'version while a client is slow', 'ok');
      check('slow', await post(`${url}/validate`, base('validate')), 'validate while a client is slow', 'ok');
      expect(Date.now() - t).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 150));
    }
    const { raw, closed, ms } = await slow;
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(LIMITS.body_timeout_ms + 3000);
    for (const reply of responsesOf(raw)) check('slow', reply, 'slow body');
  });

  it('drops headers that trickle in (checked every second, not every 30 s)', async () => {
    const { closed, ms, raw } = await exchange(child.port, ['POST /v1/validate HTTP/1.1\r\nHost: x\r\n', ...Array.from({ length: 60 }, (_, i) => [200, `X-${i}: y\r\n`]).flat()], 15_000);
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(LIMITS.body_timeout_ms + 3000);
    for (const reply of responsesOf(raw)) check('slow', reply, 'slow headers');
  });

  it('drops a connection that never sends a byte', async () => {
    const { closed, ms } = await exchange(child.port, [], 15_000);
    expect(closed).toBe(true);
    expect(ms).toBeLessThan(LIMITS.body_timeout_ms + 3000);
  });

  it('serves others while 60 slow clients hold connections, then drops them all', async () => {
    const holders = Array.from({ length: 60 }, (_, i) =>
      exchange(child.port, i % 3 === 0 ? ['POST /v1/execute HTTP/1.1\r\nHost: x\r\n'] : [`POST /v1/${ROUTES[i % 3]} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{"mthds_contents": ["`, 300, 'x'.repeat(100_000)], 15_000),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      check('slow', await post(`${url}/execute`, base('execute')), 'execute beside slow clients', 'ok');
      expect(Date.now() - t).toBeLessThan(1500);
    }
    const results = await Promise.all(holders);
    for (const { closed, ms, raw } of results) {
      expect(closed).toBe(true);
      expect(ms).toBeLessThan(LIMITS.body_timeout_ms + 4000);
      for (const reply of responsesOf(raw)) check('slow', reply, 'slow holder');
    }
  });
});

describe('hostile input: the discovery routes', () => {
  it('answers hostile queries, paths and methods on /models and /version with registry problems', async () => {
    const cases: Array<[string, string, Want | 'ok']> = [
      ['GET', '/models', 'ok'],
      ['GET', '/models?type=llm', 'ok'],
      ['GET', '/models?type=', inv('type')],
      ['GET', '/models?type=LLM', inv('type')],
      ['GET', '/models?type=llm&type=llm', inv('type')],
      ['GET', '/models?type=__proto__', inv('type')],
      ['GET', '/models?type=toString', inv('type')],
      ['GET', '/models?type=%00', inv('type')],
      ['GET', '/models?type=%FF%FE', inv('type')],
      ['GET', `/models?type=${'x'.repeat(8000)}`, inv('type')],
      ['GET', '/models?other=1&%zz', 'ok'],
      ['GET', '/models/', { status: 404, code: 'request.not_found' }],
      ['GET', '//models', { status: 404, code: 'request.not_found' }],
      ['GET', '/MODELS', { status: 404, code: 'request.not_found' }],
      ['GET', '/models.json', { status: 404, code: 'request.not_found' }],
      ['GET', '/version?x=1', 'ok'],
      ['HEAD', '/version', 'ok'],
      ['HEAD', '/models', 'ok'],
      ['POST', '/version', { status: 405, code: 'request.method_not_allowed' }],
      ['DELETE', '/models', { status: 405, code: 'request.method_not_allowed' }],
      ['PUT', '/validate', { status: 405, code: 'request.method_not_allowed' }],
      ['GET', '/execute', { status: 405, code: 'request.method_not_allowed' }],
      ['OPTIONS', '/start', { status: 405, code: 'request.method_not_allowed' }],
      ['TRACE', '/version', { status: 405, code: 'request.method_not_allowed' }],
    ];
    for (const [method, route, want] of cases) {
      const r = await request(`${url}${route}`, { method, headers: { Authorization: 'Basic Zm9vOmJhcg==', 'X-Request-ID': '../../etc/passwd\u00e9' } });
      check('discovery', r, `${method} ${route.slice(0, 60)}`, want);
      if (r.status >= 400) expect(r.json.request_id).toMatch(/^[0-9A-Z]{26}$/);
    }
    for (const route of ['/', '/v1', '/v2/version', '/v1/version/..', '/v1/blobs/missing', '/v1/runs/1']) {
      check('discovery', await get(`http://127.0.0.1:${child.port}${route}`), `GET ${route}`, { status: 404, code: 'request.not_found' });
    }
  });
});

describe('hostile input: memory and the disk, measured', () => {
  it('keeps its memory bounded through a heavy sub-campaign of huge and many bodies', async () => {
    const before = memoryOf(child.process.pid!);
    const big = { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'y'.repeat(LIMITS.max_body_bytes - 2000) } } };
    const deep = `{"mthds_contents": ${JSON.stringify([HELLO])}, "mthds_sources": ${'['.repeat(120_000)}${']'.repeat(120_000)}}`;
    const wide = JSON.stringify({ mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: Array.from({ length: 15_000 }, (_, i) => ({ [`k${i}`]: i })) } } });
    const over = JSON.stringify({ mthds_contents: ['z'.repeat(2 * LIMITS.max_body_bytes)] });
    const jobs: Array<() => Promise<Reply>> = [];
    for (let i = 0; i < 40; i++) {
      jobs.push(() => post(`${url}/execute`, big), () => post(`${url}/validate`, deep), () => post(`${url}/start`, wide), () => post(`${url}/execute`, over));
      jobs.push(() => post(`${url}/validate`, { files: Object.fromEntries(Array.from({ length: LIMITS.max_files }, (_, j) => [`b${j}.mthds`, `${HELLO.replace('"hello"', `"h${j}"`)}#${'p'.repeat(LIMITS.max_body_bytes / 20)}`])) }));
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          check('memory', await job(), `heavy job ${next}`);
        }
      }),
    );
    const after = memoryOf(child.process.pid!);
    if (!before || !after || !startMemory) {
      console.log('memory: /proc is not available here; not measured');
      return;
    }
    console.log(`memory (runner process, MiB): at start rss ${startMemory.rss.toFixed(1)}; before the heavy sub-campaign rss ${before.rss.toFixed(1)}; after it rss ${after.rss.toFixed(1)}, peak ${after.peak.toFixed(1)} (${jobs.length} heavy requests, ${(LIMITS.max_body_bytes / 1024).toFixed(0)} KiB body bound)`);
    // Tolerant bounds: an order of magnitude above what was measured, far below what unbounded
    // buffering of these bodies would take.
    expect(after.peak).toBeLessThan(768);
    expect(after.rss - startMemory.rss).toBeLessThan(512);
  });

  it('read no file while serving the whole campaign', async () => {
    // After every test that talks to the runner process: by now all their requests are answered
    // (the describes below use in-process runners of their own).
    // The audit is live: it saw the runner read its configuration file at start-up.
    expect(readFileSync(child.audit).subarray(0, child.auditStart).toString('utf8')).toMatch(/readFileSync\t.*config\.json/);
    const log = readFileSync(child.audit).subarray(child.auditStart).toString('utf8');
    const reads = log.split('\n').filter((l) => l !== '');
    expect(reads, `files read while serving:\n${reads.slice(0, 20).join('\n')}`).toEqual([]);
    expect(readFileSync(child.audit, 'utf8')).not.toContain(outside.secret);
  });
});

// ---------------------------------------------------------------------------------------------
// Credentials, idempotency races, server-side request forgery, the body budget: runners of their
// own (in-process), each with the configuration the category needs.

describe('hostile input: credentials', () => {
  let r: Runner;
  beforeAll(async () => {
    r = await withRunner({
      auth: {
        tokens: [
          { token: 'good-token', name: 'good' },
          { token: 'old-token', name: 'old', expires_at: '2001-01-01T00:00:00Z' },
          { token: 'reader-token', name: 'reader', scopes: ['validate'] },
          { token: 'runner-token', name: 'runner', scopes: ['run', 'discovery'] },
        ],
      },
    });
  });
  afterAll(async () => {
    await r.close();
  });

  const ROUTE_CALLS: Array<[string, string, unknown]> = [
    ['GET', 'models', undefined],
    ['POST', 'validate', base('validate')],
    ['POST', 'execute', base('execute')],
    ['POST', 'start', base('start')],
  ];
  const HEADERS: Array<[string, string | undefined, Want | 'ok']> = [
    ['none', undefined, { status: 401, code: 'auth.missing_credential' }],
    ['empty', '', { status: 401, code: 'auth.missing_credential' }],
    ['blank', '   ', { status: 401, code: 'auth.missing_credential' }],
    ['scheme only', 'Bearer', { status: 401, code: 'auth.invalid_credential' }],
    ['scheme and space', 'Bearer ', { status: 401, code: 'auth.invalid_credential' }],
    ['no scheme', 'good-token', { status: 401, code: 'auth.invalid_credential' }],
    ['Basic', `Basic ${Buffer.from('good-token:').toString('base64')}`, { status: 401, code: 'auth.invalid_credential' }],
    ['Token scheme', 'Token good-token', { status: 401, code: 'auth.invalid_credential' }],
    ['two tokens', 'Bearer good-token good-token', { status: 401, code: 'auth.invalid_credential' }],
    ['list of credentials', 'Bearer good-token, Bearer good-token', { status: 401, code: 'auth.invalid_credential' }],
    ['token with a prefix', 'Bearer xgood-token', { status: 401, code: 'auth.invalid_credential' }],
    ['truncated token', 'Bearer good-toke', { status: 401, code: 'auth.invalid_credential' }],
    ['token case', 'Bearer GOOD-TOKEN', { status: 401, code: 'auth.invalid_credential' }],
    ['latin-1 token', 'Bearer g\u00f6od-token', { status: 401, code: 'auth.invalid_credential' }],
    ['huge token', `Bearer ${'x'.repeat(12_000)}`, { status: 401, code: 'auth.invalid_credential' }],
    ['expired', 'Bearer old-token', { status: 401, code: 'auth.credential_expired' }],
    ['good', 'Bearer good-token', 'ok'],
    ['scheme case', 'bEaReR good-token', 'ok'],
    ['tabs', 'Bearer\tgood-token\t', 'ok'],
  ];

  it('refuses missing, malformed, unknown and expired credentials on every protected route', async () => {
    for (const [method, route, body] of ROUTE_CALLS) {
      for (const [label, header, want] of HEADERS) {
        const headers: Record<string, string> = header === undefined ? {} : { Authorization: header };
        const reply = await request(`${r.url}/${route}`, body === undefined ? { method, headers } : { method, body, headers });
        check('auth', reply, `${method} /${route} ${label}`, want);
        if (reply.status === 401) expect(reply.headers['www-authenticate']).toMatch(/^Bearer realm="mthds"/);
      }
      check('auth', await get(`${r.url}/version`, { Authorization: 'Bearer old-token' }), '/version with an expired token', 'ok');
    }
  });

  it('refuses scopes the token lacks with auth.forbidden naming the requirement', async () => {
    const reader = { Authorization: 'Bearer reader-token' };
    check('auth', await post(`${r.url}/validate`, base('validate'), reader), 'reader validates', 'ok');
    check('auth', await post(`${r.url}/execute`, base('execute'), reader), 'reader executes', { status: 403, code: 'auth.forbidden', params: { requirement: 'run' } });
    check('auth', await post(`${r.url}/start`, base('start'), reader), 'reader starts', { status: 403, code: 'auth.forbidden', params: { requirement: 'run' } });
    check('auth', await get(`${r.url}/models`, reader), 'reader lists models', { status: 403, code: 'auth.forbidden', params: { requirement: 'discovery' } });
    const runner = { Authorization: 'Bearer runner-token' };
    check('auth', await post(`${r.url}/validate`, base('validate'), runner), 'runner validates', { status: 403, code: 'auth.forbidden', params: { requirement: 'validate' } });
    check('auth', await post(`${r.url}/execute`, base('execute'), runner), 'runner executes', 'ok');
  });

  it('refuses a credential before reading the body, and a header past the bound at the HTTP layer', async () => {
    const { port } = new URL(r.url);
    const { raw, ms } = await exchange(Number(port), ['POST /v1/execute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"mthds_contents":'], 3000);
    const [reply] = responsesOf(raw);
    check('auth', reply!, 'no credential, huge declared body', { status: 401, code: 'auth.missing_credential' });
    expect(reply!.headers['connection']).toBe('close');
    expect(ms).toBeLessThan(3000);
    const huge = await exchange(Number(port), [`GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\n\r\n`], 3000);
    check('auth', responsesOf(huge.raw)[0]!, 'an Authorization header past the header bound', { status: 413, code: 'request.too_large' });
    const twice = await exchange(Number(port), ['GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\nAuthorization: Bearer good-token\r\nConnection: close\r\n\r\n'], 3000);
    check('auth', responsesOf(twice.raw)[0]!, 'two Authorization headers (the first counts)', { status: 401, code: 'auth.invalid_credential' });
  });
});

describe('hostile input: concurrent idempotent requests', () => {
  let fake: FakeOpenAI;
  let r: Runner;
  const chats = (): number => fake.requests.filter((q) => q.path.endsWith('/chat/completions')).length;
  beforeAll(async () => {
    fake = await startFakeOpenAI(() => ({ json: chatCompletion('hello, slowly'), delayMs: 500 }));
    r = await withRunner({ models: { providers: [{ name: 'slow', base_url: fake.url, models: [{ name: 'slow-llm', type: 'llm' }] }] } });
  });
  afterAll(async () => {
    await r.close();
    await fake.close();
  });
  const key = (k: string): Record<string, string> => ({ 'Idempotency-Key': k });
  const until = async (condition: () => boolean): Promise<void> => {
    for (let i = 0; i < 100 && !condition(); i++) await new Promise((res) => setTimeout(res, 50));
    expect(condition()).toBe(true);
  };
  const runBody = (who: string): Record<string, unknown> => ({ mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: who } } });

  it('runs one of many identical requests in flight under one key, and replays it after', async () => {
    const before = chats();
    const replies = await Promise.all(Array.from({ length: 8 }, () => post(`${r.url}/execute`, runBody('Ada'), key('same-8'))));
    const ok = replies.filter((x) => x.status === 200);
    expect(ok).toHaveLength(1);
    for (const x of replies) check('idempotency', x, 'same key, same body, in flight', x.status === 200 ? 'ok' : { status: 409, code: 'request.idempotency_key_in_use' });
    for (const x of replies.filter((y) => y.status === 409)) expect(x.json.retry_after).toBe(1);
    expect(chats() - before).toBe(1);
    const replay = await post(`${r.url}/execute`, runBody('Ada'), key('same-8'));
    check('idempotency', replay, 'replay', 'ok');
    expect(replay.json.pipeline_run_id).toBe(ok[0]!.json.pipeline_run_id);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(chats() - before).toBe(1);
  });

  it('refuses other bodies under a key in flight with request.idempotency_conflict, running none of them', async () => {
    const before = chats();
    const first = post(`${r.url}/execute`, runBody('first'), key('mixed'));
    // The first request is in flight once the (slow) model has been called.
    await until(() => chats() > before);
    const others = await Promise.all(['a', 'b', 'c', 'd', 'first'].map((who) => post(`${r.url}/execute`, runBody(who), key('mixed'))));
    for (const [i, x] of others.entries()) check('idempotency', x, `other body #${i}`, { status: 409, code: i === 4 ? 'request.idempotency_key_in_use' : 'request.idempotency_conflict' });
    check('idempotency', await first, 'first body', 'ok');
    expect(chats() - before).toBe(1);
    for (const who of ['a', 'b']) check('idempotency', await post(`${r.url}/execute`, runBody(who), key('mixed')), `conflict after completion ${who}`, { status: 409, code: 'request.idempotency_conflict' });
  });

  it('starts one background run for concurrent /start requests under one key', async () => {
    const before = chats();
    const replies = await Promise.all(Array.from({ length: 6 }, () => post(`${r.url}/start`, runBody('Bob'), key('start-6'))));
    for (const x of replies) check('idempotency', x, 'start under one key', x.status === 202 ? 'ok' : { status: 409, code: 'request.idempotency_key_in_use' });
    const ids = new Set(replies.filter((x) => x.status === 202).map((x) => x.json.pipeline_run_id));
    expect(ids.size).toBe(1);
    await until(() => chats() > before);
    await new Promise((res) => setTimeout(res, 300));
    expect(chats() - before).toBe(1);
  });

  it('refuses malformed keys, and keeps keys apart per route', async () => {
    for (const bad of ['', ' ', 'has space', 'x'.repeat(256), 'caf\u00e9', 'tab\there']) {
      check('idempotency', await post(`${r.url}/execute`, runBody('Ada'), key(bad)), `key ${JSON.stringify(bad).slice(0, 20)}`, inv('Idempotency-Key'));
    }
    check('idempotency', await post(`${r.url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'k' } } }, key('x'.repeat(255))), 'a key of 255 characters', 'ok');
    check('idempotency', await post(`${r.url}/start`, runBody('other'), key('x'.repeat(255))), 'the same key on /start', 'ok');
    check('idempotency', await post(`${r.url}/validate`, base('validate'), key('x'.repeat(255))), 'a key on /validate is ignored', 'ok');
    await new Promise((res) => setTimeout(res, 800));
  });
});

const SEE = `domain = "see"
description = "Looking at images and documents"

[concept.Album]
description = "An album"

[concept.Album.structure]
title = { type = "text", description = "Title", required = true }
cover = { type = "concept", concept_ref = "Image", description = "The cover", required = true }
photos = { type = "list", item_type = "concept", item_concept_ref = "Image", description = "The photos" }

[concept.Photo]
description = "A photo"
refines = "Image"

[pipe.describe]
type = "PipeLLM"
description = "Describe an image"
inputs = { picture = "Image" }
output = "Text"
prompt = """
Describe this:
@picture
"""

[pipe.photo]
type = "PipeLLM"
description = "Describe a photo"
inputs = { snap = "Photo" }
output = "Text"
prompt = """
Describe this:
@snap
"""

[pipe.many]
type = "PipeLLM"
description = "Describe images"
inputs = { pictures = "Image[]" }
output = "Text"
prompt = "Describe {{ pictures|with_images }}"

[pipe.album]
type = "PipeLLM"
description = "Describe an album"
inputs = { album = "Album" }
output = "Text"
prompt = "Describe {{ album|with_images }}"

[pipe.read]
type = "PipeExtract"
description = "Read a document"
inputs = { doc = "Document" }
output = "Page[]"

[pipe.data]
type = "PipeLLM"
description = "Summarize data"
inputs = { data = "JSON" }
output = "Text"
prompt = "Summarize {{ data|with_images }}"
`;

const PRIVATE_URLS = [
  'http://127.0.0.1/',
  'http://127.1.2.3:8080/x.png',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f.1/',
  'http://0177.0.0.1/',
  'http://0/',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[fe80::1]/',
  'http://[fd00::1]/',
  'http://[fc00::abcd]/',
  'http://localhost/',
  'http://LOCALHOST./x.png',
  'http://app.localhost:3000/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://printer.local/',
  'https://127.0.0.1:8443/',
  'HTTP://127.0.0.1/',
  ' http://127.0.0.1/',
  'http://user@127.0.0.1/',
];
const PUBLIC_URLS = ['http://93.184.216.34/cat.png', 'https://93.184.216.34:8443/a/b.png?x=1', 'http://[2606:4700:4700::1111]/x.png', 'http://8.8.8.8/', `data:image/png;base64,${PNG_BASE64}`, 'mock://image/1.png', 'gs://bucket/cat.png', 'not even a url'];

describe('hostile input: URL inputs and callbacks (server-side request forgery)', () => {
  let strict: Runner;
  let open: Runner;
  /** Names that resolve (through /etc/hosts or DNS) to non-public addresses only, on this machine. */
  let resolvingNames: string[] = [];
  beforeAll(async () => {
    strict = await withRunner({ callbacks: { timeout_ms: 500, retries: 0 } });
    open = await withRunner({ network: { allow_private: true }, callbacks: { timeout_ms: 500, retries: 0 } });
    for (const name of [hostname(), 'ip6-localhost', 'ip6-loopback']) {
      try {
        const addresses = await dns.lookup(name, { all: true });
        if (addresses.length > 0 && addresses.every((a) => isNonPublicAddress(a.address)) && !['localhost'].includes(name)) resolvingNames.push(name);
      } catch {
        // Not resolvable here.
      }
    }
    resolvingNames = [...new Set(resolvingNames)];
  });
  afterAll(async () => {
    await strict.close();
    await open.close();
  });

  const image = (u: string): unknown => ({ picture: { concept: 'Image', content: { url: u } } });
  const exec = (runner: Runner, pipe: string, inputs: unknown): Promise<Reply> => post(`${runner.url}/execute`, { mthds_contents: [SEE], pipe_code: pipe, inputs });
  const refused = (field: string): Want => ({ status: 422, code: 'mthdsls.security.address_refused', params: { field } });

  it('refuses URL inputs aimed at loopback, private, link-local and unspecified hosts, in every spelling', async () => {
    for (const u of PRIVATE_URLS) {
      check('ssrf', await exec(strict, 'describe', image(u)), `input ${u}`, refused('inputs.picture.content.url'));
      check('ssrf', await post(`${strict.url}/start`, { mthds_contents: [SEE], pipe_code: 'describe', inputs: image(u) }), `start input ${u}`, refused('inputs.picture.content.url'));
    }
    if (resolvingNames.length === 0) console.log('ssrf: no host name of this machine resolves to a non-public address; the resolving-name cases are skipped');
    for (const name of resolvingNames) {
      const r = await exec(strict, 'describe', image(`http://${name}:8080/x.png`));
      check('ssrf', r, `input naming ${name}, which resolves to a private address`, refused('inputs.picture.content.url'));
      expect(r.json.params.host).toBe(name.toLowerCase());
    }
  });

  it('finds URLs wherever an Image or Document sits in the inputs', async () => {
    const bad = 'http://169.254.169.254/latest/meta-data/';
    const cases: Array<[string, unknown, string]> = [
      ['describe', { picture: { concept: 'Image', content: { url: 'https://93.184.216.34/ok.png', public_url: bad } } }, 'inputs.picture.content.public_url'],
      ['photo', { snap: { concept: 'see.Photo', content: { url: bad } } }, 'inputs.snap.content.url'],
      ['many', { pictures: { concept: 'Image', content: [{ url: 'mock://a.png' }, { url: bad }] } }, 'inputs.pictures.content.1.url'],
      ['many', { pictures: { concept: 'Image', content: { items: [{ url: bad }] } } }, 'inputs.pictures.content.0.url'],
      ['album', { album: { concept: 'see.Album', content: { title: 't', cover: { url: bad } } } }, 'inputs.album.content.cover.url'],
      ['album', { album: { concept: 'see.Album', content: { title: 't', cover: { url: 'mock://c.png' }, photos: [{ url: 'mock://p.png' }, { url: bad }] } } }, 'inputs.album.content.photos.1.url'],
      ['read', { doc: { concept: 'Document', content: { url: bad } } }, 'inputs.doc.content.url'],
      // An object that calls itself an Image is rendered as one by the templates: it is checked too.
      ['data', { data: { concept: 'JSON', content: { json_obj: { deep: [{ _concept_code: 'native.Image', url: bad }] } } } }, 'inputs.data.content.json_obj.deep.0.url'],
      ['data', { data: { concept: 'JSON', content: { json_obj: { doc: { _concept_code: 'Document', url: bad } } } } }, 'inputs.data.content.json_obj.doc.url'],
    ];
    for (const [pipe, inputs, field] of cases) check('ssrf', await exec(strict, pipe, inputs), `${pipe} ${field}`, refused(field));
    // A file: URL names the runner's own disk: refused too (a run never reads it).
    check('ssrf', await exec(strict, 'describe', image(`file://${outside.secret}`)), 'file: URL', { status: 422, code: 'mthdsls.security.path_refused', params: { field: 'inputs.picture.content.url' } });
    check('ssrf', await exec(strict, 'read', { doc: { concept: 'Document', content: { url: 'file:///etc/passwd' } } }), 'file: URL of a document', { status: 422, code: 'mthdsls.security.path_refused' });
    // An http(s) address that does not parse is a fault of the content.
    for (const u of ['http://exa mple.com/x.png', 'http://[fe80::1%25eth0]/', 'https://', 'http://999.1.1.1.1/', 'HTTP://%zz/']) {
      check('ssrf', await exec(strict, 'describe', image(u)), `unparsable ${u}`, { status: 422, code: 'input.invalid', params: { input: 'picture', field: 'url' } });
    }
    // Host names are resolved when the request arrives, a bounded number of them per request.
    const names = Array.from({ length: 40 }, (_, i) => ({ url: `http://host-${i}.example/x.png` }));
    check('ssrf', await exec(strict, 'many', { pictures: { concept: 'Image', content: names } }), '40 distinct host names', inv('inputs.pictures.content.0.url'));
    // A text that merely mentions an address is no URL input.
    check('ssrf', await post(`${strict.url}/execute`, { mthds_contents: [HELLO], inputs: { name: { concept: 'Text', content: 'http://127.0.0.1/' } } }), 'a Text holding a URL', 'ok');
    check('ssrf', await exec(strict, 'data', { data: { concept: 'JSON', content: { json_obj: { url: 'http://127.0.0.1/' } } } }), 'a JSON member named url', 'ok');
  });

  it('accepts public and non-network URLs with the mock provider, which fetches nothing', async () => {
    for (const u of PUBLIC_URLS) {
      check('ssrf', await exec(strict, 'describe', image(u)), `public ${u}`, 'ok');
      check('ssrf', await exec(strict, 'read', { doc: { concept: 'Document', content: { url: u } } }), `public document ${u}`, 'ok');
    }
  });

  it('accepts private URL inputs when network.allow_private is set', async () => {
    for (const u of PRIVATE_URLS) check('ssrf', await exec(open, 'describe', image(u)), `allowed ${u}`, 'ok');
    for (const name of resolvingNames) check('ssrf', await exec(open, 'describe', image(`http://${name}/x.png`)), `allowed ${name}`, 'ok');
  });

  it('refuses callback_url aimed at the runner network, unless allowed', async () => {
    const run = { mthds_contents: [HELLO], inputs: ADA };
    for (const u of PRIVATE_URLS.filter((x) => !x.startsWith(' ') && !x.includes('@'))) {
      check('ssrf', await post(`${strict.url}/start`, { ...run, callback_url: u }), `callback ${u}`, refused('callback_url'));
    }
    for (const name of resolvingNames) check('ssrf', await post(`${strict.url}/start`, { ...run, callback_url: `http://${name}/done` }), `callback ${name}`, refused('callback_url'));
    check('ssrf', await post(`${strict.url}/start`, { ...run, callback_url: 'http://93.184.216.34/done' }), 'public callback', { status: 202 });
    // network.allow_private also allows callbacks: one reaches a receiver on loopback.
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.url ?? '');
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      check('ssrf', await post(`${open.url}/start`, { ...run, callback_url: `http://127.0.0.1:${port}/done` }), 'allowed callback', { status: 202 });
      for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((res) => setTimeout(res, 100));
      expect(received).toEqual(['/done']);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('guards what a provider downloads for a run at connection time (a URL produced by a model)', async () => {
    // A server on loopback standing for an internal service; the model (a fake OpenAI-compatible
    // endpoint) answers a card whose picture points at it, and the next step attaches the picture.
    // The pictures are a list: a PipeLLM output with a field holding one Image is refused.
    const hits: string[] = [];
    const internal = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.from(PNG_BASE64, 'base64'));
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const port = (internal.address() as AddressInfo).port;
    const CARD = `domain = "cards"
description = "Cards"
main_pipe = "main"

[concept.Card]
description = "A card"

[concept.Card.structure]
title = { type = "text", description = "Title", required = true }
pictures = { type = "list", item_type = "concept", item_concept_ref = "Image", description = "The pictures", required = true }

[pipe.make]
type = "PipeLLM"
description = "Make a card"
inputs = { topic = "Text" }
output = "Card"
prompt = "Make a card about $topic"

[pipe.look]
type = "PipeLLM"
description = "Look at a card"
inputs = { card = "Card" }
output = "Text"
prompt = "Describe {{ card|with_images }}"

[pipe.main]
type = "PipeSequence"
description = "Make a card and look at it"
inputs = { topic = "Text" }
output = "Text"
steps = [{ pipe = "make", result = "card" }, { pipe = "look", result = "seen" }]
`;
    const run = async (host: string, network: { allow_private?: boolean }): Promise<{ reply: Reply; fake: FakeOpenAI }> => {
      const fake = await startFakeOpenAI((q) =>
        q.body?.response_format ? { json: chatCompletion(JSON.stringify({ title: 'Cat', pictures: [{ url: `http://${host}:${port}/internal.png` }] })) } : { json: chatCompletion('a cat') },
      );
      const runner = await withRunner({ network, models: { providers: [{ name: 'fake', base_url: fake.url, models: [{ name: 'fake-llm', type: 'llm' }] }] } });
      try {
        return { reply: await post(`${runner.url}/execute`, { mthds_contents: [CARD], inputs: { topic: { concept: 'Text', content: 'cats' } } }), fake };
      } finally {
        await runner.close();
        await fake.close();
      }
    };
    try {
      for (const host of ['127.0.0.1', ...resolvingNames]) {
        const { reply } = await run(host, {});
        check('ssrf', reply, `model-produced URL on ${host}`, { status: 422, code: 'mthdsls.security.address_refused' });
      }
      expect(hits, 'the internal service was never called').toEqual([]);
      // A model-produced address that does not parse is left out of the prompt, not a fault.
      const { reply: unparsable } = await run('exa mple.com', {});
      check('ssrf', unparsable, 'model-produced URL that does not parse', 'ok');
      const { reply, fake } = await run('127.0.0.1', { allow_private: true });
      check('ssrf', reply, 'model-produced URL, private allowed', 'ok');
      expect(hits).toEqual(['/internal.png']);
      // The download went to the model as data, through the guarded path.
      expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(PNG_BASE64.slice(0, 40));
    } finally {
      await new Promise<void>((resolve) => internal.close(() => resolve()));
    }
  });
});

describe('hostile input: bytes of bodies received at once', () => {
  it('refuses new bodies once slow clients hold the budget, and recovers when they are dropped', async () => {
    const r = await withRunner({ limits: { max_body_bytes: 64 * 1024, max_body_bytes_in_flight: 128 * 1024, body_timeout_ms: 1500 } });
    try {
      const port = Number(new URL(r.url).port);
      const hold = (): ReturnType<typeof exchange> => exchange(port, ['POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n', 'x'.repeat(50_000)], 6000);
      const holders = [hold(), hold()];
      await new Promise((res) => setTimeout(res, 300));
      const busy = await post(`${r.url}/validate`, JSON.stringify(base('validate')) + ' '.repeat(40_000));
      // The runner is saturated by design here: its 503 is the registry's overload answer.
      expect(busy.status).toBe(503);
      expectProblem(busy, 'body budget exhausted');
      expect(busy.json).toMatchObject({ code: 'mthdsls.runtime.unavailable', retry_after: 1 });
      expect(busy.headers['retry-after']).toBe('1');
      for (const h of await Promise.all(holders)) expect(h.closed).toBe(true);
      check('budget', await post(`${r.url}/validate`, JSON.stringify(base('validate')) + ' '.repeat(40_000)), 'after the slow clients are dropped', 'ok');
    } finally {
      await r.close();
    }
  });
});
