// The run lifecycle reads (a hosted-API extension the public clients follow, see
// run-lifecycle.md): GET {base}/runs/{id}/status, GET {base}/runs/{id}/results and GET /health at
// the origin. A run is read only with the credential that started it: anyone else gets the 404
// of an unknown run. When the store cannot be reached, a status read answers the last record this
// process saw, marked `degraded`.

import type { Identity } from '../auth.js';
import { jsonAnswer, type Answer } from '../http/respond.js';
import { Refusal } from '../refusal.js';
import { storeUnavailable, type RunQueue } from './queue.js';
import type { RunRecord } from './store.js';

export type RunRead = { name: 'run_status' | 'run_results'; runId: string };

const RUN_PATH = /^\/runs\/([A-Za-z0-9_-]{1,128})\/(status|results)$/;
const DEGRADED_RETRY_SECONDS = 5;
const RUNNING_RETRY_SECONDS = 1;

/** The read a path (under the base path) names, if any. */
export function matchRunRead(rest: string): RunRead | undefined {
  const match = RUN_PATH.exec(rest);
  if (!match) return undefined;
  return { name: match[2] === 'status' ? 'run_status' : 'run_results', runId: match[1]! };
}

/** The records this process read or wrote last: what a degraded status read can still say. */
export class RecentRuns {
  private readonly records = new Map<string, RunRecord>();

  constructor(private readonly max = 1000) {}

  remember(record: RunRecord): void {
    this.records.delete(record.pipeline_run_id);
    this.records.set(record.pipeline_run_id, record);
    if (this.records.size > this.max) this.records.delete(this.records.keys().next().value!);
  }

  get(runId: string): RunRecord | undefined {
    return this.records.get(runId);
  }
}

function notFound(runId: string): Refusal {
  return new Refusal('mthdsls.run.not_found', { run_id: runId });
}

function statusBody(record: RunRecord, degraded: boolean): Record<string, unknown> {
  const { owner: _owner, ...rest } = record;
  return { ...rest, finished_at: record.finished_at ?? null, degraded };
}

async function ownedRecord(queue: RunQueue, recent: RecentRuns, identity: Identity, runId: string): Promise<RunRecord | undefined> {
  const record = await queue.store.get(runId);
  if (!record || record.owner !== identity.key) return undefined;
  recent.remember(record);
  return record;
}

export async function readRunStatus(queue: RunQueue, recent: RecentRuns, identity: Identity, runId: string): Promise<Answer> {
  let record: RunRecord | undefined;
  try {
    record = await ownedRecord(queue, recent, identity, runId);
  } catch {
    const last = recent.get(runId);
    if (!last || last.owner !== identity.key) throw storeUnavailable();
    return jsonAnswer(200, statusBody(last, true), { 'Retry-After': String(DEGRADED_RETRY_SECONDS) });
  }
  if (!record) throw notFound(runId);
  return jsonAnswer(200, statusBody(record, false));
}

export async function readRunResults(queue: RunQueue, recent: RecentRuns, identity: Identity, runId: string): Promise<Answer> {
  let record: RunRecord | undefined;
  let result;
  try {
    record = await ownedRecord(queue, recent, identity, runId);
    if (record?.status === 'COMPLETED') result = await queue.store.result(runId);
  } catch {
    // Clients read a 503 here as "still running, retry".
    throw storeUnavailable();
  }
  if (!record) throw notFound(runId);
  switch (record.status) {
    case 'PENDING':
    case 'RUNNING':
      return jsonAnswer(202, { pipeline_run_id: runId, status: record.status }, { 'Retry-After': String(RUNNING_RETRY_SECONDS) });
    case 'COMPLETED': {
      if (!result) throw notFound(runId);
      const name = result.main_stuff_name;
      const mainStuff = name !== undefined ? (result.pipe_output.working_memory.root[name] ?? null) : null;
      return jsonAnswer(200, { pipeline_run_id: runId, main_stuff: mainStuff, main_stuff_name: name ?? null, pipe_output: result.pipe_output, graph_spec: null });
    }
    default:
      throw new Refusal('mthdsls.run.not_completed', { run_id: runId, status: record.status });
  }
}

/** GET /health: 200 while runs can be accepted and read, else the 503 of an unreachable store. */
export async function readHealth(queue: RunQueue, version: string): Promise<Answer> {
  if (!(await queue.healthy())) throw storeUnavailable();
  return jsonAnswer(200, { status: 'ok', version, queue: queue.kind });
}
