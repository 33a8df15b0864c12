// Writing answers: JSON bodies, and problems built by the registry builder. Every answer carries
// X-Request-ID; every problem carries the same id as `request_id` and the request path as
// `instance`.

import type { ServerResponse } from 'node:http';
import { buildProblem, PROBLEM_CONTENT_TYPE, type ProblemDocument } from '../../registry/index.js';
import type { Refusal } from '../refusal.js';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return jsonTextAnswer(status, JSON.stringify(value), headers);
}

/** An answer of JSON already serialized (a cached verdict). */
export function jsonTextAnswer(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return { status, headers: Object.assign({ 'Content-Type': 'application/json; charset=utf-8' }, headers), body };
}

export function problemDocument(refusal: Refusal, requestId: string, instance: string): ProblemDocument {
  const options: Parameters<typeof buildProblem>[2] = { instance, requestId };
  if (refusal.options.retryAfter !== undefined) options.retryAfter = refusal.options.retryAfter;
  if (refusal.options.errors) options.errors = refusal.options.errors;
  if (refusal.options.location) options.location = refusal.options.location;
  if (refusal.options.extensions) options.extensions = refusal.options.extensions;
  const doc = buildProblem(refusal.code, refusal.params, options);
  if (refusal.options.detail !== undefined) doc.detail = refusal.options.detail;
  return doc;
}

export function problemAnswer(refusal: Refusal, requestId: string, instance: string): Answer {
  const doc = problemDocument(refusal, requestId, instance);
  const headers: Record<string, string> = { 'Content-Type': PROBLEM_CONTENT_TYPE, ...(refusal.options.headers ?? {}) };
  if (doc.retry_after !== undefined) headers['Retry-After'] = String(doc.retry_after);
  return { status: doc.status, headers, body: JSON.stringify(doc) };
}

export function send(res: ServerResponse, answer: Answer, requestId: string): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = Object.assign({}, answer.headers);
  headers['X-Request-ID'] = requestId;
  headers['Content-Length'] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}
