// Where accepted runs go. The embedded queue runs them in the server process (nothing survives
// the process); the Redis queue (redisQueue.ts) hands them to BullMQ for `mthds worker`
// processes. Either way the run is in the store before /start answers 202.

import type { PreparedRun } from '../runs.js';
import type { RunRegistry } from '../runs.js';
import { Refusal } from '../refusal.js';
import { pendingRecord, processRun, type ProcessDeps, type RunJob } from './process.js';
import { MemoryRunStore, type RunStore } from './store.js';

export interface RunQueue {
  readonly kind: 'embedded' | 'redis';
  readonly store: RunStore;
  /** Accepts a run (stored, then scheduled); a Refusal (503) when it cannot be stored. */
  submit(job: RunJob, prepared: PreparedRun): Promise<void>;
  /** Whether runs can be accepted and read now. */
  healthy(): Promise<boolean>;
  /** Stops taking runs; the embedded queue cancels its runs (their callbacks go out). */
  close(): Promise<void>;
}

/** The store is unreachable: nothing is accepted that could not be kept. */
export function storeUnavailable(): Refusal {
  return new Refusal('mthdsls.runtime.unavailable', {}, { retryAfter: 5, detail: 'The run store cannot be reached; no run is accepted until it can.' });
}

export interface EmbeddedQueueDeps extends Omit<ProcessDeps, 'store' | 'maxAttempts' | 'retryUndelivered'> {
  runs: RunRegistry;
  /** Background work a graceful shutdown waits for. */
  background: Set<Promise<unknown>>;
  retentionSeconds: number;
  onInternal: (error: unknown) => void;
  /** The run store shared by the processes serving the runner (cluster.ts); this process's own otherwise. */
  store?: RunStore;
}

export class EmbeddedQueue implements RunQueue {
  readonly kind = 'embedded';
  readonly store: RunStore;

  constructor(private readonly deps: EmbeddedQueueDeps) {
    this.store = deps.store ?? new MemoryRunStore(deps.retentionSeconds);
  }

  async submit(job: RunJob, prepared: PreparedRun): Promise<void> {
    // Refused (503) at capacity before anything is stored.
    const controller = this.deps.runs.open(job.runId, true);
    await this.store.create(pendingRecord(job));
    const processDeps: ProcessDeps = { ...this.deps, store: this.store, maxAttempts: 1, retryUndelivered: false };
    const work = processRun(job, processDeps, controller.signal, prepared, this.deps.onInternal).finally(() => this.deps.runs.close(job.runId));
    this.deps.background.add(work);
    void work.finally(() => this.deps.background.delete(work));
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
