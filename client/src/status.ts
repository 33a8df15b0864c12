// The status bar item: the runner the server talks to, whether it answers, and whether it accepts
// our credentials. Probed through the server's own commands (the same link the runs use), quietly,
// on start, on settings or token changes, and periodically for a remote runner.

import * as vscode from 'vscode';

export type Answer = { ok: true; [key: string]: unknown } | { ok: false; message: string };

export type Probe =
  | { state: 'starting' }
  | { state: 'stopped'; reason?: string }
  | { state: 'probed'; version: Answer; models?: Answer; tokenSource?: 'keychain' | 'environment' };

export interface StatusView {
  text: string;
  tooltip: string;
  /** A warning or error background for the item. */
  level: 'ok' | 'warning' | 'error';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const AUTH_FAILURE = /\bauth\.|HTTP 40[13]\b|\b40[13]\b|credential|token/i;

/** What the status bar says for a probe. Pure. */
export function describeStatus(probe: Probe): StatusView {
  if (probe.state === 'starting') return { text: '$(sync~spin) MTHDS', tooltip: 'The MTHDS language server is starting.', level: 'ok' };
  if (probe.state === 'stopped') return { text: '$(circle-slash) MTHDS', tooltip: `The MTHDS language server is not running${probe.reason ? `: ${probe.reason}` : '.'}`, level: 'error' };
  const v = probe.version;
  if (!v.ok) {
    return { text: '$(error) MTHDS runner unreachable', tooltip: `${v.message}\n\nClick to check again.`, level: 'error' };
  }
  const url = typeof v['url'] === 'string' ? v['url'] : '?';
  const builtIn = v['builtIn'] === true;
  const info = isRecord(v['version']) ? v['version'] : {};
  const protocol = typeof info['protocol_version'] === 'string' ? info['protocol_version'] : '?';
  const runnerVersion = typeof info['runner_version'] === 'string' ? info['runner_version'] : undefined;
  const label = `MTHDS runner${builtIn ? ' (built-in)' : ''} ${runnerVersion ?? protocol}`;
  const lines = [`Runner: ${builtIn ? 'built-in (in the language server, on loopback)' : url}`, `Protocol: ${protocol}${runnerVersion ? `, runner ${runnerVersion}` : ''}`];
  let auth: 'yes' | 'no' | 'unknown' = 'unknown';
  if (builtIn) {
    auth = 'yes';
    lines.push('Authentication: not needed (anonymous loopback runner)');
  } else if (probe.models) {
    if (probe.models.ok) {
      auth = 'yes';
      lines.push(`Authentication: accepted${probe.tokenSource ? ` (token from the ${probe.tokenSource})` : ' (no token: the runner is anonymous)'}`);
    } else if (AUTH_FAILURE.test(probe.models.message)) {
      auth = 'no';
      lines.push(`Authentication: refused${probe.tokenSource ? ` (token from the ${probe.tokenSource})` : ' (no token set: run "MTHDS: Set Runner Token")'}`);
      lines.push(probe.models.message);
    } else {
      lines.push(`Authentication: unknown (${probe.models.message})`);
    }
  }
  lines.push('', 'Click to check again.');
  if (auth === 'no') return { text: `$(lock) ${label}: not authenticated`, tooltip: lines.join('\n'), level: 'warning' };
  return { text: `$(${auth === 'yes' ? 'check' : 'question'}) ${label}`, tooltip: lines.join('\n'), level: auth === 'yes' ? 'ok' : 'warning' };
}

export interface StatusProbes {
  /** Whether the language server is running. */
  running(): boolean;
  /** `workspace/executeCommand`, quietly (no notifications). */
  execute(command: string): Promise<Answer>;
  tokenSource(): 'keychain' | 'environment' | undefined;
}

export class RunnerStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private remote = false;
  last: StatusView | undefined;

  constructor(
    private readonly probes: StatusProbes,
    private readonly intervalMs: () => number,
    command: string,
  ) {
    this.item = vscode.window.createStatusBarItem('mthds.runnerStatus', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'MTHDS Runner';
    this.item.command = command;
    this.show({ state: 'starting' });
    this.item.show();
  }

  private show(probe: Probe): void {
    const view = describeStatus(probe);
    this.last = view;
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.level === 'ok' ? undefined : new vscode.ThemeColor(view.level === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
  }

  /** Probes the runner now; a newer refresh wins over an older one still in flight. */
  async refresh(): Promise<StatusView> {
    const generation = ++this.generation;
    if (!this.probes.running()) {
      this.show({ state: 'stopped' });
      return this.last!;
    }
    let probe: Probe;
    try {
      const version = await this.probes.execute('mthds.runner.version');
      const remote = version.ok && version['builtIn'] !== true;
      this.remote = remote;
      const models = remote ? await this.probes.execute('mthds.runner.models') : undefined;
      const tokenSource = this.probes.tokenSource();
      probe = { state: 'probed', version, ...(models ? { models } : {}), ...(tokenSource ? { tokenSource } : {}) };
    } catch (error) {
      probe = { state: 'stopped', reason: error instanceof Error ? error.message : String(error) };
    }
    if (generation === this.generation) this.show(probe);
    this.schedule();
    return this.last!;
  }

  /** Only a remote runner is polled: the built-in one lives and dies with the server. */
  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const every = this.intervalMs();
    if (this.remote && every > 0) this.timer = setTimeout(() => void this.refresh(), every);
  }

  markStopped(reason?: string): void {
    this.generation++;
    this.show(reason !== undefined ? { state: 'stopped', reason } : { state: 'stopped' });
  }

  markStarting(): void {
    this.generation++;
    this.show({ state: 'starting' });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.item.dispose();
  }
}
