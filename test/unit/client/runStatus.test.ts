// The runs view of the VS Code client: what the status bar item says for each state of a followed
// run, and the output channel line per change (against a fake `vscode`).

import { beforeEach, describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));
import { resetFakes, statusBarItems } from './fakeVscode.js';
import { describeRun, RunsView } from '../../../client/src/runStatus.js';

describe('describeRun', () => {
  it('spins while the run goes on and names a retried attempt', () => {
    expect(describeRun({ pipeline_run_id: 'r1', pipe: 'greet', status: 'RUNNING' }).text).toBe('$(sync~spin) greet: RUNNING');
    expect(describeRun({ pipeline_run_id: 'r1', pipe: 'greet', status: 'RUNNING', attempts: 2 }).text).toBe('$(sync~spin) greet: RUNNING (attempt 2)');
    expect(describeRun({ pipeline_run_id: 'r1', pipe: 'greet', status: 'RUNNING', degraded: true }).tooltip).toContain('last one known');
  });

  it('offers the output of a completed run and says why a run failed', () => {
    const done = describeRun({ pipeline_run_id: 'r1', pipe: 'greet', status: 'COMPLETED', outputUri: 'file:///tmp/out.json' });
    expect(done.text).toBe('$(check) greet: COMPLETED');
    expect(done.open?.command).toBe('vscode.open');
    const failed = describeRun({ pipeline_run_id: 'r2', pipe: 'greet', status: 'FAILED', message: 'Run of greet ended FAILED: boom' });
    expect(failed.text).toBe('$(error) greet: FAILED');
    expect(failed.tooltip).toContain('boom');
    expect(failed.open).toBeUndefined();
  });
});

describe('RunsView', () => {
  beforeEach(() => resetFakes());

  it('shows the latest run and logs each change of status once', () => {
    const lines: string[] = [];
    const view = new RunsView({ appendLine: (l) => lines.push(l) });
    view.update({ pipeline_run_id: 'r1', pipe: 'greet', status: 'RUNNING' });
    view.update({ pipeline_run_id: 'r1', pipe: 'greet', status: 'RUNNING' });
    view.update({ pipeline_run_id: 'r1', pipe: 'greet', status: 'COMPLETED', outputUri: 'file:///tmp/out.json' });
    const item = statusBarItems.find((i) => i.id === 'mthds.runs')!;
    expect(item.visible).toBe(true);
    expect(item.text).toBe('$(check) greet: COMPLETED');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Output: file:///tmp/out.json');
    view.dispose();
    expect(item.disposed).toBe(true);
  });
});
