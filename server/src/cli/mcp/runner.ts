// Where the `run` tool runs methods: the built-in runner, started in this process on loopback on
// first use (with no models configured, its deterministic mock provider answers), or a remote
// runner given by URL with its bearer token. Both through the one protocol client, so that a run
// is the same request whichever runner answers it.

import path from 'node:path';
import type { MethodTree } from '../../language/tree.js';
import { RunnerClient, type RunnerError } from '../../protocol/client.js';
import type { RunInput } from '../../protocol/types.js';
import { startRunner, type RunningRunner } from '../../runner/index.js';

export type RunOutcome = { ok: true; runId: string; output: unknown } | { ok: false; message: string };

export interface MethodRunner {
  describe(): string;
  execute(tree: MethodTree, pipeRef: string, inputs: Record<string, RunInput>): Promise<RunOutcome>;
  close(): Promise<void>;
}

export interface RunnerChoice {
  /** A remote runner's base URL (version segment included); none: the built-in runner. */
  url?: string;
  token?: string;
  /** Where the built-in runner's log lines go (never stdout: it carries the MCP messages). */
  log: (line: string) => void;
}

export function methodRunner(choice: RunnerChoice): MethodRunner {
  let builtIn: Promise<RunningRunner> | undefined;
  const client = async (): Promise<RunnerClient> => {
    if (choice.url !== undefined) return new RunnerClient(Object.assign({ baseUrl: choice.url }, choice.token !== undefined ? { token: choice.token } : {}));
    builtIn ??= startRunner({ host: '127.0.0.1', port: 0, auth: { env: false }, log: choice.log, request_log: () => undefined });
    return new RunnerClient({ baseUrl: (await builtIn).url });
  };
  return {
    describe: () => (choice.url !== undefined ? `the runner at ${choice.url}` : 'the built-in runner with its mock model provider, unless the runner configuration names models'),
    async execute(tree, pipeRef, inputs) {
      const sources = tree.bundles.map((b) => path.relative(tree.root, b.file).split(path.sep).join('/'));
      const result = await (await client()).execute({ pipe_code: pipeRef, mthds_contents: tree.bundles.map((b) => b.doc.text), mthds_sources: sources, inputs });
      if (!result.ok) return { ok: false, message: errorText(result.error) };
      const value = result.value;
      if (!('pipe_output' in value)) return { ok: false, message: `The runner accepted the run without waiting for it (pipeline_run_id ${value.pipeline_run_id}).` };
      return { ok: true, runId: value.pipeline_run_id, output: value.pipe_output };
    },
    async close() {
      if (builtIn) await (await builtIn).close(1000);
    },
  };
}

function errorText(error: RunnerError): string {
  switch (error.kind) {
    case 'problem': {
      const p = error.problem;
      const items = (p.errors ?? []).slice(0, 10).map((e) => `\n- ${typeof e['code'] === 'string' ? `${e['code']}: ` : ''}${String(e['message'] ?? e['detail'] ?? JSON.stringify(e))}`);
      return `${p.code ?? `HTTP ${error.status}`}: ${p.title ?? ''}${p.detail ? ` — ${p.detail}` : ''}${items.join('')}`;
    }
    case 'unreachable':
      return `The runner cannot be reached: ${error.message}`;
    case 'timeout':
      return `The runner did not answer within ${error.timeoutMs} ms.`;
    case 'bad_response':
      return `The runner answered HTTP ${error.status} with an unexpected body: ${error.message}`;
  }
}
