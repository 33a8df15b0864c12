// The runner's guard against server-side request forgery: the one place that decides whether an
// address may be contacted on a caller's behalf. It serves the completion callbacks of /start
// (`callback_url`), the URL inputs of a run (Image and Document contents, checked when the request
// arrives) and every download made for a run (a provider fetching an image), where the check is
// repeated at connection time through a guarded DNS lookup, so that a name resolving to a public
// address when the request arrived and to a private one later (DNS rebinding) is still refused.
//
// Refused unless the configuration allows private addresses: loopback, private, link-local (cloud
// metadata), carrier-grade NAT, unspecified, multicast and reserved ranges, their IPv4-mapped,
// -compatible, NAT64, 6to4 and Teredo IPv6 forms, and names that only ever mean a local host (localhost,
// *.localhost, *.local, *.internal).

import { lookup as dnsLookup, promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Refusal } from './refusal.js';

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, octet) => (n << 8) + Number(octet), 0) >>> 0;
}

const V4_BLOCKS: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function expandV6(ip: string): number[] | undefined {
  let text = ip.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4ToInt(v4[1]!);
    text = `${text.slice(0, v4.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const a = head ? head.split(':') : [];
  const b = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - a.length - b.length;
  if (tail === undefined ? a.length !== 8 : missing < 0) return undefined;
  const groups = [...a, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...b].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** True for addresses a runner must not contact on a caller's behalf (anything unparseable too). */
export function isNonPublicAddress(address: string): boolean {
  const ip = address.startsWith('[') ? address.slice(1, -1) : address;
  const kind = isIP(ip);
  if (kind === 4) {
    const n = v4ToInt(ip);
    return V4_BLOCKS.some(([base, bits]) => (n >>> (32 - bits)) === (v4ToInt(base) >>> (32 - bits)));
  }
  if (kind === 6) {
    const groups = expandV6(ip.toLowerCase());
    if (!groups) return true;
    // IPv4 embedded: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), compatible
    // (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d, and the local-use 64:ff9b:1::/48).
    const zeros = (n: number): boolean => groups.slice(0, n).every((g) => g === 0);
    const embedded =
      (zeros(5) && (groups[5] === 0xffff || groups[5] === 0)) ||
      (zeros(4) && groups[4] === 0xffff && groups[5] === 0) ||
      (groups[0] === 0x64 && groups[1] === 0xff9b && (groups.slice(2, 6).every((g) => g === 0) || groups[2] === 1));
    if (embedded) return isNonPublicAddress(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
    // 6to4 (2002:AABB:CCDD::/48 carries a.b.c.d in groups 2-3) reaches the IPv4 host it names.
    if (groups[0] === 0x2002) return isNonPublicAddress(`${groups[1]! >> 8}.${groups[1]! & 255}.${groups[2]! >> 8}.${groups[2]! & 255}`);
    // Teredo (2001:0::/32): the server's IPv4 in groups 2-3, the client's one inverted in 6-7.
    if (groups[0] === 0x2001 && groups[1] === 0) {
      const client = `${(groups[6]! ^ 0xffff) >> 8}.${(groups[6]! ^ 0xffff) & 255}.${(groups[7]! ^ 0xffff) >> 8}.${(groups[7]! ^ 0xffff) & 255}`;
      return isNonPublicAddress(client) || isNonPublicAddress(`${groups[2]! >> 8}.${groups[2]! & 255}.${groups[3]! >> 8}.${groups[3]! & 255}`);
    }
    const first = groups[0]!;
    // Unique local fc00::/7, link-local fe80::/10, site-local fec0::/10 (deprecated), multicast.
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0 || (first & 0xff00) === 0xff00;
  }
  return false;
}

/** The host of a URL as compared: no brackets, no trailing dots, lower case. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
}

/** Names that only ever mean this host or its local network, whatever DNS answers. */
export function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || host === '';
}

export function addressRefused(field: string, host: string): Refusal {
  return new Refusal('mthdsls.security.address_refused', { field, host: host === '' ? '(none)' : host.slice(0, 255) });
}

/**
 * What can be decided without DNS: a refusal for a literal non-public address or a local name,
 * 'public' for a literal public address, 'name' when only a lookup can tell.
 */
export function literalVerdict(url: URL, field: string, allowPrivate: boolean): Refusal | 'public' | 'name' {
  const host = hostOf(url);
  if (allowPrivate) return 'public';
  if (isLocalName(host)) return addressRefused(field, host);
  if (isIP(host)) return isNonPublicAddress(host) ? addressRefused(field, host) : 'public';
  return 'name';
}

const LOOKUP_TIMEOUT_MS = 5000;

// Arrival checks share lookups: one per host in flight, answers kept LOOKUP_TTL_MS (at most
// LOOKUP_CACHE_SIZE hosts). Safe against rebinding because fetches resolve again at connection
// time through guardedLookup; this only spares a DNS round trip per request on busy runners.
const LOOKUP_TTL_MS = 30_000;
const LOOKUP_CACHE_SIZE = 1024;
const lookups = new Map<string, { answer: Promise<LookupAddress[]>; expires: number }>();

function resolveAll(host: string): Promise<LookupAddress[]> {
  const now = Date.now();
  const cached = lookups.get(host);
  if (cached && cached.expires > now) return cached.answer;
  if (lookups.size >= LOOKUP_CACHE_SIZE) {
    for (const [h, entry] of lookups) if (entry.expires <= now || lookups.size >= LOOKUP_CACHE_SIZE) lookups.delete(h);
  }
  const answer = resolveNow(host);
  lookups.set(host, { answer, expires: now + LOOKUP_TTL_MS });
  // A failed lookup is not kept: the next request asks again.
  answer.catch(() => lookups.delete(host));
  return answer;
}

async function resolveNow(host: string): Promise<LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      dns.lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface AddressCheck {
  /** Dotted path of the member holding the URL, named by the refusal. */
  field: string;
  allowPrivate: boolean;
  /**
   * A name that does not resolve: refused as request.invalid (`strict`, for an address the runner
   * will certainly call, the callback), or let through (`lenient`, for URL inputs that a run may
   * never fetch; the connection-time guard still applies if one is fetched).
   */
  unresolved: 'strict' | 'lenient';
}

/** Checks an http(s) URL when a request arrives: its host must be, or resolve only to, public addresses. */
export async function checkUrlAddress(url: URL, check: AddressCheck): Promise<void> {
  const verdict = literalVerdict(url, check.field, check.allowPrivate);
  if (verdict instanceof Refusal) throw verdict;
  if (verdict === 'public') return;
  const host = hostOf(url);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    if (check.unresolved === 'lenient') return;
    throw new Refusal('request.invalid', { field: check.field }, { detail: `The host of ${check.field} does not resolve.` });
  }
  if (addresses.some((a) => isNonPublicAddress(a.address))) throw addressRefused(check.field, host);
}

/** The error of a connection whose name resolved to a refused address. */
export class AddressRefusedError extends Error {
  readonly code = 'EREFUSED';
  constructor(readonly host: string) {
    super(`host ${host} resolves to a non-public address`);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A DNS lookup for outgoing connections made on a caller's behalf that refuses non-public answers
 * (names are resolved again at connection time: DNS rebinding is caught here).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const bad = !allowPrivate && (isLocalName(hostname.replace(/\.+$/, '').toLowerCase()) || list.some((a) => isNonPublicAddress(a.address)));
      if (bad || list.length === 0) return callback(new AddressRefusedError(hostname), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The options of an outgoing request made on a caller's behalf: the guarded lookup, and no
 * connection reuse (a pooled socket would skip the lookup).
 */
export function guardedRequestOptions(allowPrivate: boolean): { lookup: LookupFunction; agent: false } {
  return { lookup: guardedLookup(allowPrivate), agent: false };
}

export interface DownloadOptions {
  allowPrivate: boolean;
  /** Names the URL in refusals (an input, or an attachment of a model call). */
  field: string;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
  maxRedirects?: number;
  userAgent?: string;
}

export interface Downloaded {
  data: Uint8Array;
  mediaType: string | undefined;
}

function unreachable(field: string, url: URL): Refusal {
  return new Refusal('input.url_unreachable', { input: field, host: hostOf(url) || '(none)' });
}

/**
 * GETs an http(s) URL for a run: every hop's address is checked (literal addresses here, names by
 * the guarded lookup), redirects are followed a few times and re-checked, the size is bounded.
 * Refusals: mthdsls.security.address_refused, input.url_unreachable, input.too_large.
 */
export async function guardedDownload(start: URL, options: DownloadOptions): Promise<Downloaded> {
  let url = start;
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw unreachable(options.field, url);
    const verdict = literalVerdict(url, options.field, options.allowPrivate);
    if (verdict instanceof Refusal) throw verdict;
    const answer = await getOnce(url, options);
    if ('redirect' in answer) {
      url = answer.redirect;
      continue;
    }
    return answer;
  }
  throw unreachable(options.field, url);
}

function getOnce(url: URL, options: DownloadOptions): Promise<Downloaded | { redirect: URL }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { Accept: '*/*' };
    if (options.userAgent) headers['User-Agent'] = options.userAgent;
    const req = client.get(url, { ...guardedRequestOptions(options.allowPrivate), headers, timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        let next: URL;
        try {
          next = new URL(res.headers.location, url);
        } catch {
          return reject(unreachable(options.field, url));
        }
        return resolve({ redirect: next });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return reject(unreachable(options.field, url));
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isSafeInteger(declared) && declared > options.maxBytes) {
        res.destroy();
        return reject(new Refusal('input.too_large', { input: options.field, limit: options.maxBytes, size: declared }));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          reject(new Refusal('input.too_large', { input: options.field, limit: options.maxBytes, size }));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ data: new Uint8Array(Buffer.concat(chunks, size)), mediaType: res.headers['content-type'] }));
      res.on('error', () => reject(unreachable(options.field, url)));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted) return reject(options.signal.reason ?? error);
      // The guarded lookup refused the address the name resolves to.
      if (error instanceof AddressRefusedError) return reject(addressRefused(options.field, hostOf(url)));
      reject(unreachable(options.field, url));
    });
  });
}
