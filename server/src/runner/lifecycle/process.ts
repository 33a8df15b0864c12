// Running one accepted run, wherever it runs: in the server process (the embedded default) or in
// a queue worker. The job carries the request body as received; it is checked again where it runs
// (a worker may have another config than the server that admitted it). Every attempt is recorded;
// past the configured attempts (each one lost with its worker) the run ends FAILED
// (mthdsls.run.abandoned). Only the call that makes the run terminal posts the callback.

import { randomUUID } from 'node:crypto';
import { VERSION } from '../../version.js';
import type { ProblemDocument } from '../../registry/index.js';
import { deliverCallback } from '../callbacks.js';
import { problemDocument } from '../http/respond.js';
import { materializeMethod } from '../methodRef.js';
import { isRefusal, Refusal } from '../refusal.js';
import { parseRunRequest } from '../requests.js';
import { admitRun, executePrepared, type PreparedRun, type RunDeps, type RunResultExecute } from '../runs.js';
import type { RunOutcome, RunRecord, RunStore } from './store.js';

/** What a queue carries for a run: enough to run it and to answer for it anywhere. */
export interface RunJob {
  runId: string;
  owner: string;
  /** The /start request body as received. */
  body: Record<string, unknown>;
  createdAt: string;
  pipeCode?: string;
  requestId: string;
  instance: string;
}

export interface ProcessDeps extends RunDeps {
  store: RunStore;
  /** How many times a run is taken up before it is given up (its workers kept stopping). */
  maxAttempts: number;
  /**
   * A callback not delivered rejects the job (CallbackPending), so that the queue takes it up again
   * later; in process (the embedded queue), it is logged and given up.
   */
  retryUndelivered: boolean;
}

const USER_AGENT = `mthds-runner/${VERSION}`;

export function pendingRecord(job: RunJob): RunRecord {
  const record: RunRecord = { pipeline_run_id: job.runId, owner: job.owner, status: 'PENDING', created_at: job.createdAt, attempts: 0 };
  if (job.pipeCode !== undefined) record.pipe_code = job.pipeCode;
  return record;
}

function failure(refusal: Refusal, job: RunJob): RunOutcome {
  const error = problemDocument(refusal, job.requestId, job.instance);
  const finished_at = new Date().toISOString();
  if (refusal.code === 'mthdsls.run.timeout') return { status: 'TIMED_OUT', finished_at, error };
  if (refusal.code === 'mthdsls.run.cancelled') return { status: 'CANCELLED', finished_at, error };
  return { status: 'FAILED', finished_at, error };
}

async function execute(job: RunJob, deps: ProcessDeps, signal: AbortSignal, prepared?: PreparedRun): Promise<RunResultExecute> {
  if (!prepared) {
    const request = parseRunRequest(job.body, 'start', deps.config);
    if (request.method) request.method = await materializeMethod(request.method, deps.config, signal);
    prepared = await admitRun(request, deps);
  }
  return executePrepared(prepared, deps, job.runId, signal);
}

/** How long a callback claim holds without renewal: a deliverer that died frees it this soon. */
export const CALLBACK_LEASE_MS = 10_000;

/** A callback not delivered yet: the queue takes the job up again later (its backoff). */
export class CallbackPending extends Error {}

/**
 * The callback of a run, from its outcome; posted once. The claim is a lease renewed while the
 * delivery runs, marked delivered when the receiver accepted it, released when it did not: a
 * worker killed mid-delivery, or a receiver that fails for a while, never loses the callback for
 * a later attempt (the queue's), which finds it free.
 */
async function notify(job: RunJob, deps: ProcessDeps, outcome: RunOutcome): Promise<void> {
  let url: URL | undefined;
  try {
    url = parseRunRequest(job.body, 'start', deps.config).callbackUrl;
  } catch {
    return;
  }
  if (!url) return;
  const holder = randomUUID();
  if (!(await deps.store.claimCallback(job.runId, holder, CALLBACK_LEASE_MS))) {
    // Another deliverer holds it (or held it and died): try again once its lease is over.
    if (deps.retryUndelivered && !(await deps.store.callbackDelivered(job.runId))) throw new CallbackPending(`run ${job.runId}: its callback is being delivered elsewhere`);
    return;
  }
  const renewal = setInterval(() => {
    void deps.store.claimCallback(job.runId, holder, CALLBACK_LEASE_MS).catch(() => undefined);
  }, CALLBACK_LEASE_MS / 4);
  renewal.unref();
  // The callback's status is the anchors' COMPLETED / FAILED; the run's record says more (CANCELLED, TIMED_OUT).
  const payload: Record<string, unknown> =
    outcome.status === 'COMPLETED' ? { pipeline_run_id: job.runId, status: 'COMPLETED', result: outcome.result } : { pipeline_run_id: job.runId, status: 'FAILED', error: outcome.error };
  const { allowPrivate, timeoutMs, retries, secret } = deps.config.callbacks;
  let delivered: boolean;
  try {
    delivered = await deliverCallback(url, job.runId, payload, { allowPrivate, timeoutMs, retries, userAgent: USER_AGENT, ...(secret ? { secret } : {}) });
  } finally {
    clearInterval(renewal);
  }
  if (delivered) {
    await deps.store.deliveredCallback(job.runId);
    deps.config.log(`run ${job.runId}: callback delivered to ${url.origin}`);
    return;
  }
  await deps.store.releaseCallback(job.runId, holder);
  if (deps.retryUndelivered) throw new CallbackPending(`run ${job.runId}: the completion callback to ${url.origin} was not accepted; the queue tries again`);
  deps.config.log(`run ${job.runId}: the completion callback could not be delivered to ${url.origin}`);
}

/** The outcome of a run that is terminal already, for a callback its finisher did not post. */
async function storedOutcome(record: RunRecord, store: RunStore): Promise<RunOutcome | undefined> {
  const finished_at = record.finished_at ?? new Date().toISOString();
  if (record.status === 'COMPLETED') {
    const result = await store.result(record.pipeline_run_id);
    return result ? { status: 'COMPLETED', finished_at, result } : undefined;
  }
  if (record.status === 'PENDING' || record.status === 'RUNNING' || !record.error) return undefined;
  return { status: record.status, finished_at, error: record.error as ProblemDocument };
}

/**
 * Runs a job to its terminal state. `prepared`: the run as the server admitted it (in-process).
 * Never throws for the run's own faults (they end it FAILED); rejects when the store fails or a
 * callback is still owed (retryUndelivered), so that a queue takes the job up again.
 */
export async function processRun(job: RunJob, deps: ProcessDeps, signal: AbortSignal, prepared?: PreparedRun, onInternal?: (error: unknown) => void): Promise<RunRecord | undefined> {
  const base = pendingRecord(job);
  const current = await deps.store.get(job.runId);
  if (current && current.status !== 'PENDING' && current.status !== 'RUNNING') {
    // A retry of a job whose run ended before its worker stopped: only the callback may be owed.
    const outcome = await storedOutcome(current, deps.store);
    if (outcome) await notify(job, deps, outcome);
    return current;
  }
  if (current && current.attempts >= deps.maxAttempts) {
    const refusal = new Refusal('mthdsls.run.abandoned', { attempts: current.attempts });
    const outcome = failure(refusal, job);
    if (await deps.store.finish(job.runId, outcome)) await notify(job, deps, outcome);
    return deps.store.get(job.runId);
  }
  const begun = await deps.store.begin(current ?? base, new Date().toISOString());
  if (!begun.started) return begun.record;
  let outcome: RunOutcome;
  try {
    const result = await execute(job, deps, signal, prepared);
    outcome = { status: 'COMPLETED', finished_at: result.finished_at, result };
  } catch (error) {
    if (!isRefusal(error)) onInternal?.(error);
    outcome = failure(isRefusal(error) ? error : new Refusal('mthdsls.runtime.internal'), job);
  }
  if (await deps.store.finish(job.runId, outcome)) await notify(job, deps, outcome);
  return deps.store.get(job.runId);
}
