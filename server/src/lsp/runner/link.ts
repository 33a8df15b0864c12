// The runner the editor talks to: the one configured (`mthds.runner.url`, with a bearer token given
// directly or by the name of an environment variable), else the built-in runner, started in-process
// on loopback the first time it is needed and stopped with the server, where the host can start one
// (not in a browser: there a configured runner is needed, and said so).

import { RunnerClient, type RunnerClientOptions } from '../../protocol/client.js';
import type { BuiltInRunner } from '../host.js';
import type { RunnerSettings } from '../settings.js';

export interface LinkedRunner {
  client: RunnerClient;
  url: string;
  builtIn: boolean;
  /** Where the requests come from, in a browser (see ServerHost.origin). */
  origin?: string;
}

export class RunnerLink {
  private builtIn: Promise<BuiltInRunner> | undefined;

  constructor(
    private readonly settings: () => RunnerSettings,
    private readonly log: (line: string) => void,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly startBuiltIn?: (log: (line: string) => void) => Promise<BuiltInRunner>,
    private readonly origin?: string,
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
      return { client: new RunnerClient(options), url: s.url, builtIn: false, ...(this.origin !== undefined ? { origin: this.origin } : {}) };
    }
    if (this.startBuiltIn === undefined) throw new RunnerNeeded();
    this.builtIn ??= this.startBuiltIn(this.log);
    let running: BuiltInRunner;
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

/** No runner is configured and none can be started here (a browser): the message says what to do. */
export class RunnerNeeded extends Error {
  constructor() {
    super('A runner is needed: no runner can start inside the browser. Set the setting mthds.runner.url to the address of an MTHDS runner (mthds serve), and its token with "MTHDS: Set Runner Token".');
  }
}
