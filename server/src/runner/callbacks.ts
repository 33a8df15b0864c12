// Completion callbacks of /start (`callback_url`): where a started run's outcome is POSTed, since
// the runner keeps no run store. The runner refuses to call loopback, private, link-local (cloud
// metadata) and similar hosts unless its config allows them, both when the request arrives and
// again at connection time (a name may resolve elsewhere by then).

import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
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

/** True for addresses a runner must not call on a caller's behalf. */
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
    // IPv4 embedded: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
    const embedded = (groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0)) || (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0));
    if (embedded) return isNonPublicAddress(`${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`);
    const first = groups[0]!;
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
  }
  return false;
}

function refused(host: string): Refusal {
  return new Refusal('mthdsls.security.address_refused', { field: 'callback_url', host });
}

/** Checks a callback URL when the request arrives: the host must resolve to public addresses only. */
export async function checkCallbackUrl(url: URL, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate) return;
  if (host === 'localhost' || host.endsWith('.localhost')) throw refused(host);
  if (isIP(host)) {
    if (isNonPublicAddress(host)) throw refused(host);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([
      dns.lookup(host, { all: true }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 5000).unref()),
    ]);
  } catch {
    throw new Refusal('request.invalid', { field: 'callback_url' }, { detail: 'The host of callback_url does not resolve.' });
  }
  if (addresses.some((a) => isNonPublicAddress(a.address))) throw refused(host);
}

/** A DNS lookup for the callback connection that refuses non-public answers. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const bad = !allowPrivate && list.find((a) => isNonPublicAddress(a.address));
      if (bad) return callback(Object.assign(new Error(`callback host ${hostname} resolves to a non-public address`), { code: 'EREFUSED' }), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export interface CallbackOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  retries: number;
  secret?: string;
  userAgent: string;
}

function postOnce(url: URL, body: string, headers: Record<string, string>, options: CallbackOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(options.allowPrivate), timeout: options.timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('callback timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * POSTs a run's outcome, retrying on network failures and 5xx answers. Returns whether the
 * callback was accepted (2xx); never throws (nobody is waiting on it).
 */
export async function deliverCallback(url: URL, runId: string, payload: unknown, options: CallbackOptions): Promise<boolean> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': options.userAgent, 'X-Pipeline-Run-Id': runId };
  if (options.secret) headers['X-Completion-Signature'] = createHmac('sha256', options.secret).update(body).digest('hex');
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    try {
      const status = await postOnce(url, body, headers, options);
      if (status >= 200 && status < 300) return true;
      if (status < 500) return false;
    } catch {
      // Retried below.
    }
    await new Promise((r) => setTimeout(r, 250 * 2 ** attempt).unref());
  }
  return false;
}
