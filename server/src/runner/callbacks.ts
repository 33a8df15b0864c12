// Completion callbacks of /start (`callback_url`): where a started run's outcome is POSTed, so that
// a client need not poll the run store (lifecycle/) for it. The runner refuses to call loopback, private, link-local (cloud
// metadata) and similar hosts unless its config allows them, both when the request arrives and
// again at connection time (a name may resolve elsewhere by then): the guard of network.ts.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkUrlAddress, guardedRequestOptions, isNonPublicAddress } from './network.js';

export { isNonPublicAddress };

/** Checks a callback URL when the request arrives: the host must resolve to public addresses only. */
export async function checkCallbackUrl(url: URL, allowPrivate: boolean): Promise<void> {
  await checkUrlAddress(url, { field: 'callback_url', allowPrivate, unresolved: 'strict' });
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
    const req = client.request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, ...guardedRequestOptions(options.allowPrivate), timeout: options.timeoutMs }, (res) => {
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
