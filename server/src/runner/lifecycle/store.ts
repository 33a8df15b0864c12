// The run store: what a started run is (its record) and what it gave (its result), kept so that
// clients can read a run after the 202 of /start. The embedded runner keeps it in memory; with a
// queue it lives in Redis (redisStore.ts) so that any server process answers for any run.
// Terminal transitions happen once: `finish` says whether this call made the run terminal, and
// only that caller delivers the completion callback. A callback is claimed for a while (a lease its
// deliverer renews), marked delivered once accepted, and released when its delivery failed: a
// deliverer that dies or gives up never leaves a claimed, undelivered callback behind for good.

import { randomUUID } from 'node:crypto';
import type { ProblemDocument } from '../../registry/index.js';
import type { RunResultExecute } from '../runs.js';

export const RUN_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type TerminalStatus = Exclude<RunStatus, 'PENDING' | 'RUNNING'>;

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return status !== 'PENDING' && status !== 'RUNNING';
}

export interface RunRecord {
  pipeline_run_id: string;
  /** The identity key of the credential that started the run: nobody else reads it. */
  owner: string;
  pipe_code?: string;
  status: RunStatus;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  /** How many times a worker took the run up (more than 1: a worker stopped mid-run). */
  attempts: number;
  /** The problem that ended a run FAILED, CANCELLED or TIMED_OUT. */
  error?: ProblemDocument;
}

export interface RunStore {
  /** Stores a new run (PENDING). Rejects when the store cannot be written (the run is not accepted). */
  create(record: RunRecord): Promise<void>;
  get(runId: string): Promise<RunRecord | undefined>;
  result(runId: string): Promise<RunResultExecute | undefined>;
  /** Marks a run RUNNING for one more attempt; false when it is terminal already (nothing to do). */
  begin(record: RunRecord, startedAt: string): Promise<{ started: boolean; record: RunRecord }>;
  /** Makes a run terminal; true only for the call that did (later calls change nothing). */
  finish(runId: string, outcome: RunOutcome): Promise<boolean>;
  /**
   * Claims the completion callback of a run for `leaseMs` (renewed by claiming again with the same
   * `holder`): true when it was free (never claimed, released, or its lease ran out) or already
   * this holder's; false once delivered or while another holder's lease runs.
   */
  claimCallback(runId: string, holder?: string, leaseMs?: number): Promise<boolean>;
  /** Gives a claim back (its delivery failed): the next attempt may claim it. */
  releaseCallback(runId: string, holder: string): Promise<void>;
  /** Records that the callback was accepted: it is never claimed again. */
  deliveredCallback(runId: string): Promise<void>;
  /** Whether the callback was accepted already. */
  callbackDelivered(runId: string): Promise<boolean>;
  /** Removes a run whose job could not be queued (never answered 202). */
  discard(runId: string): Promise<void>;
  close(): Promise<void>;
}

export type RunOutcome =
  | { status: 'COMPLETED'; finished_at: string; result: RunResultExecute }
  | { status: Exclude<TerminalStatus, 'COMPLETED'>; finished_at: string; error: ProblemDocument };

/** Applies an outcome to a record (the stored record never carries the result itself). */
export function finishedRecord(record: RunRecord, outcome: RunOutcome): RunRecord {
  const next: RunRecord = { ...record, status: outcome.status, finished_at: outcome.finished_at };
  if (outcome.status !== 'COMPLETED') next.error = outcome.error;
  return next;
}

export function runningRecord(record: RunRecord, startedAt: string): RunRecord {
  return { ...record, status: 'RUNNING', started_at: startedAt, attempts: record.attempts + 1 };
}

/** How long a callback claim holds without renewal, unless the caller says. */
export const DEFAULT_CLAIM_LEASE_MS = 60_000;

type CallbackClaim = { state: 'held'; holder: string; until: number } | { state: 'delivered' };

interface Entry {
  record: RunRecord;
  result?: RunResultExecute;
  callback?: CallbackClaim;
  /** When a terminal run is forgotten (ms since the epoch). */
  expiresAt?: number;
}

/** The embedded runner's store: one process, terminal runs kept for `retentionSeconds`. */
export class MemoryRunStore implements RunStore {
  private readonly entries = new Map<string, Entry>();
  private lastSweep = 0;

  constructor(
    private readonly retentionSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Forgets expired runs, at most once a second (a full pass over the entries). */
  private sweep(): void {
    const now = this.now();
    if (now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.entries.delete(id);
    }
  }

  private live(runId: string): Entry | undefined {
    const entry = this.entries.get(runId);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(runId);
      return undefined;
    }
    return entry;
  }

  async create(record: RunRecord): Promise<void> {
    this.sweep();
    this.entries.set(record.pipeline_run_id, { record });
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    return this.live(runId)?.record;
  }

  async result(runId: string): Promise<RunResultExecute | undefined> {
    return this.live(runId)?.result;
  }

  async begin(record: RunRecord, startedAt: string): Promise<{ started: boolean; record: RunRecord }> {
    const entry = this.live(record.pipeline_run_id) ?? { record };
    if (isTerminal(entry.record.status)) return { started: false, record: entry.record };
    entry.record = runningRecord(entry.record, startedAt);
    this.entries.set(record.pipeline_run_id, entry);
    return { started: true, record: entry.record };
  }

  async finish(runId: string, outcome: RunOutcome): Promise<boolean> {
    const entry = this.live(runId);
    if (!entry || isTerminal(entry.record.status)) return false;
    entry.record = finishedRecord(entry.record, outcome);
    if (outcome.status === 'COMPLETED') entry.result = outcome.result;
    entry.expiresAt = this.now() + this.retentionSeconds * 1000;
    return true;
  }

  async claimCallback(runId: string, holder: string = randomUUID(), leaseMs = DEFAULT_CLAIM_LEASE_MS): Promise<boolean> {
    const entry = this.live(runId);
    if (!entry) return false;
    const claim = entry.callback;
    const now = this.now();
    if (claim?.state === 'delivered') return false;
    if (claim && claim.holder !== holder && claim.until > now) return false;
    entry.callback = { state: 'held', holder, until: now + leaseMs };
    return true;
  }

  async releaseCallback(runId: string, holder: string): Promise<void> {
    const entry = this.live(runId);
    if (entry?.callback?.state === 'held' && entry.callback.holder === holder) delete entry.callback;
  }

  async deliveredCallback(runId: string): Promise<void> {
    const entry = this.live(runId);
    if (entry) entry.callback = { state: 'delivered' };
  }

  async callbackDelivered(runId: string): Promise<boolean> {
    return this.live(runId)?.callback?.state === 'delivered';
  }

  async discard(runId: string): Promise<void> {
    this.entries.delete(runId);
  }

  async close(): Promise<void> {}
}
