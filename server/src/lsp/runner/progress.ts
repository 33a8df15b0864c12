// Following a started run (mthds.runner.start) from the run lifecycle reads: its status is polled
// (GET /runs/{id}/status) until it is terminal. Generic clients see it as work-done progress
// ($/progress, when they support it) and a window/showMessage at the end; every change of status is
// also sent as the `mthds/runStatus` notification, which the VS Code client shows in its status
// bar. A completed run's output is written like the one of execute and opened when possible.

import { MessageType, ShowMessageNotification, type Connection, type WorkDoneProgressServerReporter } from 'vscode-languageserver';
import type { RunnerClient } from '../../protocol/client.js';
import { RUN_STATUS_NOTIFICATION, TERMINAL_RUN_STATUSES, type RunStatusParams } from '../../protocol/types.js';
import { describeRunnerError } from './messages.js';

export interface FollowOptions {
  connection: Connection;
  client: RunnerClient;
  runnerUrl: string;
  canShowProgress: boolean;
  canShowDocument: boolean;
  /** Writes a completed run's output; returns its URI. Absent where nothing can be saved (a browser). */
  writeOutput?: (pipe: string, runId: string, output: unknown) => string;
  intervalMs?: number;
  /** Stops following (the run goes on) after this long. */
  maxMs?: number;
}

function show(connection: Connection, type: MessageType, message: string): void {
  void connection.sendNotification(ShowMessageNotification.type, { type, message });
}

/** Follows a run to its end; never throws (nobody waits on it). Resolves with the last status sent. */
export async function followRun(options: FollowOptions, runId: string, pipe: string): Promise<RunStatusParams> {
  const { connection, client } = options;
  const interval = options.intervalMs ?? 500;
  const deadline = Date.now() + (options.maxMs ?? 60 * 60_000);
  let progress: WorkDoneProgressServerReporter | undefined;
  if (options.canShowProgress) {
    progress = await connection.window.createWorkDoneProgress().catch(() => undefined);
    progress?.begin(`Run of ${pipe}`, undefined, 'PENDING', false);
  }
  const send = (params: RunStatusParams): RunStatusParams => {
    void connection.sendNotification(RUN_STATUS_NOTIFICATION, params);
    return params;
  };
  let last: RunStatusParams = { pipeline_run_id: runId, pipe, status: 'PENDING' };
  let failures = 0;
  try {
    for (;;) {
      const read = await client.runStatus(runId);
      if (!read.ok) {
        // A runner without run reads (404), or one that keeps failing: stop following, say why.
        if (read.error.kind === 'problem' && read.error.status === 404 || ++failures >= 5) {
          const message = `The run ${runId} of ${pipe} cannot be followed: ${describeRunnerError(read.error, options.runnerUrl)}`;
          show(connection, MessageType.Warning, message);
          return send({ ...last, message });
        }
      } else {
        failures = 0;
        const { status, degraded } = read.value;
        const attempts = typeof read.value['attempts'] === 'number' ? read.value['attempts'] : undefined;
        if (status !== last.status || degraded !== last.degraded) {
          last = send({ pipeline_run_id: runId, pipe, status, degraded, ...(attempts !== undefined ? { attempts } : {}) });
          progress?.report(`${status}${attempts !== undefined && attempts > 1 ? ` (attempt ${attempts})` : ''}${degraded ? ' (runner degraded)' : ''}`);
        }
        if (TERMINAL_RUN_STATUSES.has(status)) return await finished(options, last, read.value['error']);
      }
      if (Date.now() > deadline) return last;
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  } catch (error) {
    return send({ ...last, message: error instanceof Error ? error.message : String(error) });
  } finally {
    progress?.done();
  }
}

async function finished(options: FollowOptions, last: RunStatusParams, error: unknown): Promise<RunStatusParams> {
  const { connection, client } = options;
  const { pipeline_run_id: runId, pipe } = last;
  if (last.status !== 'COMPLETED') {
    const detail = error && typeof error === 'object' && typeof (error as { detail?: unknown }).detail === 'string' ? `: ${(error as { detail: string }).detail}` : '.';
    const message = `Run of ${pipe} ended ${last.status}${detail}`;
    show(connection, MessageType.Warning, message);
    return { ...last, message };
  }
  const results = await client.runResults(runId);
  if (!results.ok || results.status !== 200) {
    const message = `Run of ${pipe} completed, but its results cannot be read${results.ok ? '' : `: ${describeRunnerError(results.error, options.runnerUrl)}`}`;
    show(connection, MessageType.Warning, message);
    return { ...last, message };
  }
  const output = results.value.pipe_output ?? results.value.main_stuff;
  const outputUri = options.writeOutput?.(pipe, runId, output);
  if (outputUri === undefined) {
    show(connection, MessageType.Info, `Run of ${pipe} completed.`);
    return last;
  }
  const done: RunStatusParams = { ...last, outputUri };
  void connection.sendNotification(RUN_STATUS_NOTIFICATION, done);
  if (options.canShowDocument) await connection.window.showDocument({ uri: outputUri, takeFocus: false }).catch(() => undefined);
  show(connection, MessageType.Info, `Run of ${pipe} completed: its output is in ${outputUri}.`);
  return done;
}
