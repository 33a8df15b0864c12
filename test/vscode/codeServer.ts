// A real VS Code for the end-to-end test: code-server (VS Code served over HTTP) from the cache
// folder `install-code-server.sh` fills, with the packaged extension installed, on a free loopback
// port, in its own process group (it forks an extension host and the extension forks the language
// server: stopping it kills them all), with its own profile in a temp folder.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);

export const REPO = path.resolve(__dirname, '../..');
export const CODE_SERVER_BIN = process.env['MTHDS_CODE_SERVER'] ?? path.join(REPO, '.cache/code-server/node_modules/.bin/code-server');

/** Quiet, reproducible settings: no telemetry, welcome page, trust prompt, update or git noise. */
const SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'files.autoSave': 'off',
  'editor.minimap.enabled': false,
  'window.commandCenter': false,
  'chat.commandCenter.enabled': false,
  'workbench.layoutControl.enabled': false,
  // The built-in runner listens on loopback: no port forwarding notices.
  'remote.autoForwardPorts': false,
};


export class CodeServer {
  private log = '';
  private exited: number | null | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly home: string,
  ) {
    child.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
    child.on('exit', (code) => (this.exited = code));
  }

  /**
   * Installs `vsix` into a fresh profile and serves `folder`; resolves once it answers HTTP.
   * `settings` are added to the quiet defaults of the profile's user settings.
   */
  static async start(vsix: string, folder: string, settings: Record<string, unknown> = {}, timeoutMs = 180_000): Promise<CodeServer> {
    const home = mkdtempSync(path.join(tmpdir(), 'mthds-code-server-'));
    const userData = path.join(home, 'user-data');
    const extensions = path.join(home, 'extensions');
    mkdirSync(path.join(userData, 'User'), { recursive: true });
    writeFileSync(path.join(userData, 'User/settings.json'), JSON.stringify({ ...SETTINGS, ...settings }, null, 2));
    const config = path.join(home, 'config.yaml');
    writeFileSync(config, 'auth: none\n');
    // code-server writes to XDG folders (its config, state): kept in the temp folder too, and so
    // is its temp folder, where the language server writes run outputs: another VS Code test on
    // the machine never sees this one's.
    mkdirSync(path.join(home, 'tmp'));
    const env = { ...process.env, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_DATA_HOME: path.join(home, 'data'), XDG_CACHE_HOME: path.join(home, 'cache'), TMPDIR: path.join(home, 'tmp') };
    const profile = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];
    await run(CODE_SERVER_BIN, [...profile, '--install-extension', vsix, '--force'], { env, timeout: timeoutMs });
    const port = await freePort();
    const child = spawn(
      CODE_SERVER_BIN,
      [...profile, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', '--ignore-last-opened', folder],
      // Its own process group, so that stop() reaches the extension host and the language server.
      { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const server = new CodeServer(child, `http://127.0.0.1:${port}/`, home);
    process.once('exit', () => server.killGroup('SIGKILL'));
    try {
      await server.answering(timeoutMs);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  private async answering(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exited !== undefined) throw new Error(`code-server exited (${this.exited}) before answering:\n${this.log}`);
      try {
        const response = await fetch(`${this.url}healthz`, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`code-server did not answer on ${this.url} within ${timeoutMs / 1000} s:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  get output(): string {
    return this.log;
  }

  /** The temp folder of code-server and everything it starts (the extension's language server too). */
  get tmpDir(): string {
    return path.join(this.home, 'tmp');
  }

  /** The profile's user data folder: its `logs/` hold the extension host's output channels, one file each. */
  get userDataDir(): string {
    return path.join(this.home, 'user-data');
  }

  private killGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // The group is gone already.
    }
  }

  /** Stops the whole process group: SIGTERM, then SIGKILL if it lingers. */
  async stop(): Promise<void> {
    this.killGroup('SIGTERM');
    const deadline = Date.now() + 10_000;
    while (this.exited === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // The extension host and the language server may outlive the main process: the group goes.
    this.killGroup('SIGKILL');
    rmSync(this.home, { recursive: true, force: true, maxRetries: 5 });
  }
}
