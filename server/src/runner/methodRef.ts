// `method_ref`: a request names its method instead of sending it. An installed method (address,
// address@constraint, or package name) is looked up in the runner's package store
// (workspace/methodStore.ts); an http(s) URL of a bundle is downloaded through the same guarded
// client as URL inputs (no loopback or private hosts unless the configuration allows them).
// Refusals: method.not_found (404), method.ambiguous, method.fetch_failed (502, retryable),
// request.unsupported for other forms.

import { resolveMethodRef } from '../workspace/methodStore.js';
import type { ResolvedConfig } from './config.js';
import type { LoadableSource, MethodSource } from './method.js';
import { guardedDownload } from './network.js';
import { Refusal } from './refusal.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

const MAX_REF_CHARS = 512;

/** The method source a `method_ref` names, the network left for later (see materializeMethod). */
export function methodRefSource(value: unknown, config: ResolvedConfig): MethodSource {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || value === '' || value.length > MAX_REF_CHARS || /[\u0000-\u001f\u007f\\]/.test(value)) {
    throw new Refusal('request.invalid', { field: 'method_ref' }, { detail: `method_ref must be a package address, address@version, package name or http(s) URL of at most ${MAX_REF_CHARS} characters.` });
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
      throw new Refusal('request.unsupported', { field: 'method_ref', reason: 'method_ref_form' }, { detail: 'method_ref URLs must be http(s), without credentials; other schemes are not resolved by this runner.' });
    }
    return { kind: 'remote', ref: value, url };
  }
  const found = resolveMethodRef(nodeFileSystem, config.packagesDir, value);
  if (found.kind === 'not_found') throw new Refusal('method.not_found', { method_ref: value });
  if (found.kind === 'ambiguous') throw new Refusal('method.ambiguous', { method_ref: value, candidates: found.candidates });
  return { kind: 'installed', ref: value, dir: found.dir, address: found.address, version: found.version };
}

/** Downloads a remote method; every other source is returned as it is. */
export async function materializeMethod(source: MethodSource, config: ResolvedConfig, signal?: AbortSignal): Promise<LoadableSource> {
  if (source.kind !== 'remote') return source;
  let data: Uint8Array;
  try {
    const options = { allowPrivate: config.network.allowPrivate, field: 'method_ref', maxBytes: config.limits.max_file_bytes, timeoutMs: config.network.downloadTimeoutMs, ...(signal ? { signal } : {}) };
    data = (await guardedDownload(source.url, options)).data;
  } catch (error) {
    // The host did not answer or failed: the method could not be fetched. Refusals of the address
    // itself (private hosts) and of the size stand as they are.
    if (error instanceof Refusal && error.code !== 'input.url_unreachable') {
      if (error.code === 'input.too_large') throw new Refusal('request.too_large', { limit: config.limits.max_file_bytes, size: Number(error.params['size'] ?? 0) });
      throw error;
    }
    throw new Refusal('method.fetch_failed', { method_ref: source.ref });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new Refusal('method.package_invalid', { reason: 'file_unreadable', path: source.ref }, { detail: `The method at ${source.ref} is not UTF-8 text.` });
  }
  const name = decodeURIComponent(source.url.pathname.split('/').pop() ?? '') || 'method.mthds';
  return { kind: 'contents', contents: [text], sources: [name] };
}
