// The runs the language server follows (mthds/runStatus notifications, sent while a run started
// with "MTHDS: Start run" goes on): the latest one in a status bar item, every change of status a
// line of the "MTHDS Runs" output channel. Clicking the item opens a completed run's output.

import * as vscode from 'vscode';
import { RUN_STATUS_NOTIFICATION, TERMINAL_RUN_STATUSES, type RunStatusParams } from '../../server/src/protocol/types.js';

export { RUN_STATUS_NOTIFICATION, type RunStatusParams };

export interface RunView {
  text: string;
  tooltip: string;
  /** A command opening the output, for a completed run. */
  open?: { command: string; title: string; arguments: unknown[] };
}

export function describeRun(p: RunStatusParams): RunView {
  const icon = p.status === 'COMPLETED' ? 'check' : TERMINAL_RUN_STATUSES.has(p.status) ? 'error' : 'sync~spin';
  const attempt = p.attempts !== undefined && p.attempts > 1 ? ` (attempt ${p.attempts})` : '';
  const lines = [`Run ${p.pipeline_run_id} of ${p.pipe}: ${p.status}${attempt}`];
  if (p.degraded) lines.push('The runner could not reach its run store: the status is the last one known.');
  if (p.message) lines.push(p.message);
  if (p.outputUri) lines.push(`Output: ${p.outputUri} (click to open)`);
  const view: RunView = { text: `$(${icon}) ${p.pipe}: ${p.status}${attempt}`, tooltip: lines.join('\n') };
  if (p.outputUri) view.open = { command: 'vscode.open', title: 'Open the run output', arguments: [vscode.Uri.parse(p.outputUri)] };
  return view;
}

export class RunsView implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly seen = new Map<string, string>();

  constructor(private readonly log: { appendLine(line: string): void }) {
    this.item = vscode.window.createStatusBarItem('mthds.runs', vscode.StatusBarAlignment.Right, 99);
    this.item.name = 'MTHDS Runs';
  }

  update(p: RunStatusParams): void {
    const view = describeRun(p);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.open;
    this.item.show();
    const key = `${p.status}|${p.outputUri ?? ''}|${p.message ?? ''}`;
    if (this.seen.get(p.pipeline_run_id) !== key) {
      this.seen.set(p.pipeline_run_id, key);
      this.log.appendLine(`${new Date().toISOString()} ${view.tooltip.split('\n').join(' | ')}`);
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
