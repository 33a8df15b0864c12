// The request bodies of the POST routes, checked against the protocol's shapes plus the extension
// members this runner accepts. Every fault is a Refusal naming the failing field by its dotted path.
//
// Extension members: `mthds_sources` (names each content, for error attribution), `files` (a
// package tree: relative path -> text), `method_ref` (an installed method or a bundle URL, see
// methodRef.ts) and, on /start, `callback_url`. Any other member outside
// the protocol is refused with request.unsupported: a member meant for another implementation must
// not be silently ignored.

import type { ResolvedConfig } from './config.js';
import type { MethodSource } from './method.js';
import { fieldPath, Refusal } from './refusal.js';
import { methodRefSource } from './methodRef.js';
import { clashingName } from '../util/paths.js';

export interface RunInput {
  concept: string;
  content: unknown;
}

export interface RunRequest {
  pipeCode?: string;
  method?: MethodSource;
  inputs: Record<string, RunInput>;
  outputName?: string;
  /** true: a list, false: one item, N: exactly N items. */
  outputMultiplicity?: boolean | number;
  dynamicOutputConceptRef?: string;
  callbackUrl?: URL;
}

export interface ValidateRequest {
  method: MethodSource;
  allowSignatures: boolean;
}

const RUN_MEMBERS = new Set(['pipe_code', 'mthds_contents', 'inputs', 'output_name', 'output_multiplicity', 'dynamic_output_concept_ref', 'mthds_sources', 'files', 'method_ref']);
const VALIDATE_MEMBERS = new Set(['mthds_contents', 'allow_signatures', 'mthds_sources', 'files', 'method_ref']);

function invalid(field: string, detail?: string): Refusal {
  return new Refusal('request.invalid', { field }, detail ? { detail } : {});
}

function present(body: Record<string, unknown>, key: string): boolean {
  return body[key] !== undefined && body[key] !== null;
}

function checkMembers(body: Record<string, unknown>, allowed: ReadonlySet<string>, route: string): void {
  for (const key of Object.keys(body)) {
    if (allowed.has(key)) continue;
    if (key === 'callback_url') throw new Refusal('request.unsupported', { field: 'callback_url', reason: 'start_only' }, { detail: 'callback_url is only accepted on /start.' });
    throw new Refusal('request.unsupported', { field: fieldPath(key), reason: 'extension_member' }, { detail: `The member ${fieldPath(key)} is not supported by this runner on /${route}.` });
  }
}

function tooLarge(limit: number, size: number, what: string): Refusal {
  return new Refusal('request.too_large', { limit, size }, { detail: `The request holds ${size} ${what}, over the limit of ${limit}.`, extensions: { bound: 'file_count' } });
}

function checkContents(body: Record<string, unknown>, config: ResolvedConfig): MethodSource | undefined {
  const hasContents = present(body, 'mthds_contents');
  const hasFiles = present(body, 'files');
  if (present(body, 'mthds_sources') && !hasContents) throw invalid('mthds_sources', 'mthds_sources names the items of mthds_contents, which is absent.');
  if (hasContents && hasFiles) throw invalid('files', 'files and mthds_contents are two ways of sending a method: send one.');
  if (present(body, 'method_ref')) {
    if (hasContents || hasFiles) throw invalid('method_ref', 'method_ref names a method that files or mthds_contents would send: send one of them.');
    return methodRefSource(body['method_ref'], config);
  }
  if (hasFiles) return { kind: 'files', files: checkFiles(body['files'], config) };
  if (!hasContents) return undefined;
  const contents = body['mthds_contents'];
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('mthds_contents', 'mthds_contents must be an array of at least one bundle text.');
  if (contents.length > config.limits.max_files) throw tooLarge(config.limits.max_files, contents.length, 'bundle texts');
  contents.forEach((c, i) => {
    if (typeof c !== 'string') throw invalid(`mthds_contents.${i}`);
    const size = Buffer.byteLength(c, 'utf8');
    if (size > config.limits.max_file_bytes) throw new Refusal('request.too_large', { limit: config.limits.max_file_bytes, size });
  });
  const source: MethodSource = { kind: 'contents', contents: contents as string[] };
  if (present(body, 'mthds_sources')) {
    const sources = body['mthds_sources'];
    if (!Array.isArray(sources)) throw invalid('mthds_sources', 'mthds_sources must be an array of names, one per item of mthds_contents.');
    if (sources.length !== contents.length) {
      throw invalid('mthds_sources', `mthds_sources has ${sources.length} names for ${contents.length} items of mthds_contents; give one name per item.`);
    }
    sources.forEach((s, i) => {
      if (typeof s !== 'string' || s === '' || s.length > 1024) throw invalid(`mthds_sources.${i}`);
    });
    source.sources = sources as string[];
  }
  return source;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A `files` map must be a tree: relative paths with forward slashes, no `.`/`..` segments, no
 * scheme. Hash entries name bytes a blob store would hold; this runner keeps none.
 */
export function checkFiles(value: unknown, config: ResolvedConfig): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('files', 'files must be an object mapping relative paths to file texts.');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw new Refusal('method.package_invalid', { reason: 'no_source' });
  // A package past the runner's bounds is a package fault (the registry's `limit` gives the bound).
  if (entries.length > config.limits.max_files) throw new Refusal('method.package_invalid', { reason: 'too_many_files', limit: config.limits.max_files }, { detail: `The files map holds ${entries.length} files; this runner accepts at most ${config.limits.max_files}.` });
  const missing: string[] = [];
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, text] of entries) {
    const reason = pathFault(name);
    if (reason) throw new Refusal('method.package_invalid', name === '' ? { reason } : { reason, path: fieldPath(name) });
    if (typeof text === 'object' && text !== null && !Array.isArray(text) && 'sha256' in text) {
      const hash = (text as Record<string, unknown>)['sha256'];
      if (typeof hash !== 'string' || !SHA256.test(hash)) throw invalid(fieldPath('files', name, 'sha256'));
      missing.push(hash);
      continue;
    }
    if (typeof text !== 'string') throw invalid(fieldPath('files', name));
    const size = Buffer.byteLength(text, 'utf8');
    if (size > config.limits.max_file_bytes) throw new Refusal('method.package_invalid', { reason: 'file_too_large', path: fieldPath(name), limit: config.limits.max_file_bytes });
    out[name] = text;
  }
  // A tree: no name is both a file and a folder of other files.
  const names = entries.map(([name]) => name);
  const folders = new Set<string>();
  for (const name of names) for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) folders.add(name.slice(0, i));
  const clash = names.find((name) => folders.has(name));
  if (clash !== undefined) throw new Refusal('method.package_invalid', { reason: 'not_a_tree', path: fieldPath(clash) }, { detail: `The files map names ${fieldPath(clash)} both as a file and as a folder of other files: it is not a tree.` });
  const clashing = clashingName(names);
  if (clashing !== undefined) throw new Refusal('method.package_invalid', { reason: 'clashing_names', path: fieldPath(clashing) }, { detail: `The files map names ${fieldPath(clashing)} and another file that differ only by letter case or Unicode form: they would be one file on many file systems.` });
  if (missing.length > 0) throw new Refusal('request.blobs_missing', { missing_blobs: [...new Set(missing)] });
  if (!Object.keys(out).some((n) => n.endsWith('.mthds'))) throw new Refusal('method.package_invalid', { reason: 'no_source' });
  return out;
}

const MAX_PATH_CHARS = 1024;
const MAX_SEGMENT_BYTES = 255;

/** Why a files key is not a path of a tree, or undefined when it is one. */
export function pathFault(name: string): string | undefined {
  if (name === '') return 'empty_path';
  if (name.includes('\\')) return 'backslash';
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(name)) return 'scheme';
  if (name.startsWith('/')) return 'absolute';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'unloadable_name';
  const segments = name.split('/');
  if (segments.includes('..')) return 'leaves_tree';
  if (segments.some((s) => s === '' || s === '.')) return 'not_normalized';
  // Names no file system holds: a path past 1024 characters, or a segment past 255 bytes.
  if (name.length > MAX_PATH_CHARS || segments.some((s) => Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES)) return 'unloadable_name';
  return undefined;
}

export function parseRunRequest(body: Record<string, unknown>, route: 'execute' | 'start', config: ResolvedConfig): RunRequest {
  checkMembers(body, route === 'start' ? new Set([...RUN_MEMBERS, 'callback_url']) : RUN_MEMBERS, route);
  // No prototype: input names are the caller's (`__proto__`, `constructor` are names like others).
  const request: RunRequest = { inputs: Object.create(null) as Record<string, RunInput> };
  if (present(body, 'pipe_code')) {
    const code = body['pipe_code'];
    // eslint-disable-next-line no-control-regex
    if (typeof code !== 'string' || code === '' || code.length > 256 || /[\u0000-\u001f\u007f]/.test(code)) throw invalid('pipe_code', 'pipe_code must be a non-empty string of at most 256 characters, without control characters.');
    request.pipeCode = code;
  }
  const method = checkContents(body, config);
  if (method) request.method = method;
  if (!request.pipeCode && !request.method) {
    throw invalid('pipe_code', 'pipe_code and mthds_contents cannot both be empty: send a pipe_code, a bundle, or both.');
  }
  if (present(body, 'inputs')) {
    const inputs = body['inputs'];
    if (typeof inputs !== 'object' || Array.isArray(inputs) || inputs === null) throw invalid('inputs', 'inputs must be an object mapping input names to { concept, content }.');
    for (const [name, stuff] of Object.entries(inputs as Record<string, unknown>)) {
      if (typeof stuff !== 'object' || stuff === null || Array.isArray(stuff)) throw invalid(fieldPath('inputs', name), 'Each input must be an object { concept, content }.');
      const s = stuff as Record<string, unknown>;
      if (typeof s['concept'] !== 'string' || s['concept'] === '') throw invalid(fieldPath('inputs', name, 'concept'));
      if (!('content' in s)) throw invalid(fieldPath('inputs', name, 'content'));
      request.inputs[name] = { concept: s['concept'], content: s['content'] };
    }
  }
  if (present(body, 'output_name')) {
    const name = body['output_name'];
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name)) throw invalid('output_name');
    request.outputName = name;
  }
  if (present(body, 'output_multiplicity')) {
    const m = body['output_multiplicity'];
    if (typeof m === 'boolean') request.outputMultiplicity = m;
    else if (typeof m === 'number' && Number.isSafeInteger(m) && m >= 1 && m <= 1000) request.outputMultiplicity = m;
    else throw invalid('output_multiplicity', 'output_multiplicity must be a boolean or a count from 1 to 1000.');
  }
  if (present(body, 'dynamic_output_concept_ref')) {
    const ref = body['dynamic_output_concept_ref'];
    if (typeof ref !== 'string' || ref === '') throw invalid('dynamic_output_concept_ref');
    request.dynamicOutputConceptRef = ref;
  }
  if (route === 'start' && present(body, 'callback_url')) {
    const raw = body['callback_url'];
    let url: URL | undefined;
    try {
      url = typeof raw === 'string' && raw.length <= 2048 ? new URL(raw) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
      throw invalid('callback_url', 'callback_url must be an http(s) URL of at most 2048 characters, without credentials.');
    }
    request.callbackUrl = url;
  }
  return request;
}

export function parseValidateRequest(body: Record<string, unknown>, config: ResolvedConfig): ValidateRequest {
  checkMembers(body, VALIDATE_MEMBERS, 'validate');
  const method = checkContents(body, config);
  if (!method) throw invalid('mthds_contents', 'mthds_contents is required: an array of at least one bundle text.');
  let allowSignatures = false;
  if (present(body, 'allow_signatures')) {
    if (typeof body['allow_signatures'] !== 'boolean') throw invalid('allow_signatures');
    allowSignatures = body['allow_signatures'];
  }
  return { method, allowSignatures };
}
