// The background check of the workspace's closed files once the client has said `initialized`,
// reported as progress: every tree found, then what their documents share made ahead, and (in the
// server's own process) the check's garbage collected before the progress ends.

import type { StartupCollection } from '../heap.js';
import type { Diagnostics } from './diagnostics/index.js';
import type { ServerState } from './serverState.js';

export async function checkWorkspace(state: ServerState, diag: Diagnostics): Promise<void> {
  const { connection, capabilities } = state;
  const trees = await state.scans!.settled();
  let reporter: { begin(title: string, percentage?: number, message?: string, cancellable?: boolean): void; report(percentage: number, message?: string): void; done(): void } | undefined;
  if (capabilities.window?.workDoneProgress) {
    try {
      reporter = await connection.window.createWorkDoneProgress();
    } catch {
      reporter = undefined;
    }
  }
  reporter?.begin('MTHDS', 0, `Checking ${trees.length} method tree${trees.length === 1 ? '' : 's'}`, false);
  let lastReport = 0;
  // The check's garbage collected before the progress ends (heap.ts `collectStartupGarbage` says
  // when), begun as soon as the last tree has its results: V8 marks on its own threads while they
  // are published and what the documents share is made. Else V8's first full collection of that
  // heap runs in pieces during the first keystrokes (measured at 5,000 bundles: steps of up to
  // 12 ms, and the keystroke p99 over 16 ms in a third of the runs).
  let collection: StartupCollection | undefined;
  const collect = (): void => {
    if (state.options.collectAfterStartup) collection ??= state.options.collectAfterStartup(diag.msSinceDocumentChange(), (line) => connection.tracer.log(line));
  };
  await diag.flushDirty((done, total) => {
    const now = Date.now();
    if (now - lastReport < 100 && done < total) return;
    lastReport = now;
    reporter?.report(Math.floor((done * 100) / Math.max(1, total)), `${done}/${total} method trees`);
  }, collect);
  collect();
  // What the documents of these trees share, made before the progress ends: a document opened
  // and typed in at once finds it made (idleWork.ts treePreparationSteps).
  await diag.prepareTrees(trees);
  await collection?.end();
  reporter?.done();
}
