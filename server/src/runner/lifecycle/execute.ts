// /execute on a runner with a queue: the run is queued like a started one and waited for; past the
// wait the answer is the protocol's optional 202 (a RunResultStart with the run's Location), and
// the client follows the run through the lifecycle reads.

import { PROBLEM_CONTENT_TYPE } from '../../registry/index.js';
import { jsonAnswer, type Answer } from '../http/respond.js';
import { isTerminal, type RunStore } from './store.js';

const POLL_MS = 50;

export async function awaitRun(store: RunStore, runId: string, waitMs: number, location: string): Promise<Answer> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const record = await store.get(runId).catch(() => undefined);
    if (record && isTerminal(record.status)) {
      const result = record.status === 'COMPLETED' ? await store.result(runId).catch(() => undefined) : undefined;
      if (result) return jsonAnswer(200, result);
      if (record.error) return { status: record.error.status, headers: { 'Content-Type': PROBLEM_CONTENT_TYPE }, body: JSON.stringify(record.error) };
    }
    if (Date.now() >= deadline) {
      return jsonAnswer(202, { pipeline_run_id: runId, state: 'STARTED', created_at: record?.created_at ?? null, finished_at: null }, { Location: location, 'Retry-After': '1' });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
