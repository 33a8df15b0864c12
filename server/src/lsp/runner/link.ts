// The runner the editor talks to: the one configured (`mthds.runner.url`, with a bearer token given
// directly or by the name of an environment variable), else the built-in runner, started in-process
// on loopback the first time it is needed and stopped with the server.

import { RunnerClient, type RunnerClientOptions } from '../../protocol/client.js';
import { startRunner, type RunningRunner } from '../../runner/index.js';
import type { RunnerSettings } from '../settings.js';

export interface LinkedRunner {
  client: RunnerClient;
  url: string;
  builtIn: boolean;
}

export class RunnerLink {
  private builtIn: Promise<RunningRunner> | undefined;

  constructor(
    private readonly settings: () => RunnerSettings,
    private readonly log: (line: string) => void,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  /** The bearer token: given directly, else read from the named environment variable. */
  token(): string | undefined {
    const s = this.settings();
    if (s.token !== undefined) return s.token;
    if (s.tokenEnv !== undefined) {
      const value = this.env[s.tokenEnv]?.trim();
      return value ? value : undefined;
    }
    return undefined;
  }

  /** A client for the configured runner, or for the built-in one (started on first use). */
  async connect(): Promise<LinkedRunner> {
    const s = this.settings();
    if (s.url !== undefined) {
      const token = this.token();
      const options: RunnerClientOptions = { baseUrl: s.url };
      if (token !== undefined) options.token = token;
      if (s.timeoutMs !== undefined) options.timeoutMs = s.timeoutMs;
      return { client: new RunnerClient(options), url: s.url, builtIn: false };
    }
    // Loopback, a free port, anonymous (no token from the environment): it serves this editor only.
    this.builtIn ??= startRunner({ host: '127.0.0.1', port: 0, auth: { env: false }, log: this.log });
    let running: RunningRunner;
    try {
      running = await this.builtIn;
    } catch (error) {
      this.builtIn = undefined;
      throw error;
    }
    const options: RunnerClientOptions = { baseUrl: running.url };
    if (s.timeoutMs !== undefined) options.timeoutMs = s.timeoutMs;
    return { client: new RunnerClient(options), url: running.url, builtIn: true };
  }

  async close(): Promise<void> {
    const running = this.builtIn;
    this.builtIn = undefined;
    if (running) await (await running).close(1_000).catch(() => undefined);
  }
}
