// Black-box helpers: a runner started in-process on loopback (port 0) and plain HTTP requests.

import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { startRunner, type RunnerOptions } from '../../../server/src/runner/index.js';
import { CLI_BIN as BIN } from '../../helpers/cli.js';

export type Runner = Awaited<ReturnType<typeof startRunner>>;

export async function withRunner(options: RunnerOptions = {}): Promise<Runner> {
  return startRunner({ port: 0, log: () => {}, env: {}, ...options });
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One request; `body` is sent as is (string or Buffer) or JSON-encoded otherwise. */
export function request(url: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    let payload: Buffer | undefined;
    if (options.body !== undefined) {
      payload = Buffer.isBuffer(options.body) ? options.body : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
    }
    const headers: Record<string, string> = { ...(payload && !options.headers?.['Content-Type'] ? { 'Content-Type': 'application/json' } : {}), ...options.headers };
    if (payload) headers['Content-Length'] = String(payload.length);
    const req = http.request(u, { method: options.method ?? (payload ? 'POST' : 'GET'), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export const post = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> => request(url, { method: 'POST', body, headers });
export const get = (url: string, headers: Record<string, string> = {}): Promise<Reply> => request(url, { headers });

/** Expects a registry problem: status, content type, code and the RFC 7807 members. */
export function problemOf(reply: Reply): { code: string; status: number; params: Record<string, unknown>; detail: string; errors?: any[]; [k: string]: unknown } {
  if (reply.headers['content-type'] !== 'application/problem+json') throw new Error(`not a problem (${reply.status} ${reply.headers['content-type']}): ${reply.text.slice(0, 300)}`);
  return reply.json;
}

export const HELLO = `domain = "hello"
description = "Hello"
main_pipe = "greet"

[pipe.greet]
type = "PipeLLM"
description = "Greet someone"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."
`;

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A callback receiver on loopback; `next()` resolves with the next POST it receives. */
export async function receiver(): Promise<{ url: string; next: () => Promise<Received>; close: () => Promise<void> }> {
  const waiting: Array<(r: Received) => void> = [];
  const queue: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const got = { headers: req.headers, raw, body: JSON.parse(raw) };
      res.writeHead(204).end();
      const w = waiting.shift();
      if (w) w(got);
      else queue.push(got);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/done`,
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}


/** Starts `mthds serve --port 0` as a process and resolves with the URL it prints first. */
export function serveProcess(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: path.dirname(path.dirname(path.dirname(BIN))), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve({ child, url: out.split('\n')[0]!, exited, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}
