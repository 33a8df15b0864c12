// Registry entries: the runtime family (the runtime itself).

import { family, step } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const runtime = family({});

export const RUNTIME = [
  // 500 / yes / runtime: a fault of the runner; the request may well succeed when repeated. The
  // detail is fixed text so that no internals (stack, paths, messages) ever reach the caller.
  runtime({
    code: 'mthdsls.runtime.internal',
    title: 'Internal error',
    status: 500,
    retry: true,
    domain: 'runtime',
    detail: 'The runner failed unexpectedly. The failure is logged; quote the request id when reporting it.',
    client: [step('retry', 'Repeat the request once.')],
    others: [step('contact_owner', 'If it persists, report it to the runner operator with the request id.')],
    explanation:
      'The runner met an unexpected fault while handling the request. The problem never exposes internals; the request id links it to the runner logs.',
  }),
  // 503 / yes / runtime: overloaded, starting or in maintenance; retry after retry_after.
  runtime({
    code: 'mthdsls.runtime.unavailable',
    title: 'Runner unavailable',
    status: 503,
    retry: true,
    domain: 'runtime',
    detail: 'The runner cannot take requests right now.',
    client: [step('wait', 'Wait for retry_after seconds when given.'), step('retry', 'Repeat the request unchanged.')],
    others: [step('contact_owner', 'If it persists, the runner operator checks its capacity.')],
    explanation:
      'The runner is overloaded, starting or in maintenance and refuses new work for now.',
  }),
] as const;
