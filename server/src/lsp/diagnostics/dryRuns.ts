// The dry-run scheduler: once the static diagnostics of a tree holding an open document are out
// and typing has paused, the tree is dry-run in the background (when its static checks found no
// error, as `mthds check` does) and its findings join the tree's; a newer check or change of the
// tree cancels it.

import type { Finding } from '../../check/finding.js';
import type { Session, TreeCheck } from '../../workspace/session.js';
import type { DiagnosticsOptions } from './context.js';

export class DryRunScheduler {
  /** The pending or running dry run of each tree: cancelling it stops the timer or aborts the run. */
  private readonly dryRuns = new Map<string, () => void>();

  constructor(
    private readonly session: Session,
    private readonly options: DiagnosticsOptions,
    /** Publishes a finished dry run's findings with the tree's. */
    private readonly publish: (key: string, findings: readonly Finding[]) => void,
    private readonly guard: (fn: () => void) => void,
  ) {}

  /**
   * After the static diagnostics of a tree holding an open document are out and typing has paused,
   * dry-runs it (when its static checks found no error, as `mthds check` does) and publishes its
   * findings with the tree's, unless a newer check or change of the tree came meanwhile.
   */
  schedule(result: TreeCheck): void {
    const key = result.id.key;
    const delay = this.options.dryRunDelayMs?.() ?? 0;
    const tree = result.tree;
    const dryRun = this.options.dryRun;
    if (delay <= 0 || !tree || !dryRun || !this.session.hasOpenDocument(key)) return;
    const started = this.session.checksOf(key);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      if (this.session.checksOf(key) !== started || this.session.isDirty(key)) return;
      const staticFindings = [...result.findings.values()].flat();
      if (!dryRun.due(tree, staticFindings)) return;
      const t0 = performance.now();
      this.options.trace?.(`mthds: dry run of ${key} started`);
      void dryRun.run(tree, staticFindings, { signal: controller.signal }).then(
        (findings) => {
          if (this.dryRuns.get(key) === cancel) this.dryRuns.delete(key);
          if (controller.signal.aborted || this.session.checksOf(key) !== started || this.session.isDirty(key)) {
            this.options.trace?.(`mthds: dry run of ${key} cancelled`);
            return;
          }
          this.guard(() => this.publish(key, findings));
          this.options.trace?.(`mthds: dry-ran ${key} in ${(performance.now() - t0).toFixed(1)} ms (${findings.length} findings)`);
        },
        (error: unknown) => {
          if (this.dryRuns.get(key) === cancel) this.dryRuns.delete(key);
          if (controller.signal.aborted) this.options.trace?.(`mthds: dry run of ${key} cancelled`);
          else this.guard(() => {
            throw error;
          });
        },
      );
    }, delay);
    const cancel = (): void => {
      clearTimeout(timer);
      controller.abort();
    };
    this.dryRuns.set(key, cancel);
  }

  /** Cancels the pending or running dry run of a tree. */
  cancel(key: string): void {
    const cancel = this.dryRuns.get(key);
    if (cancel) {
      this.dryRuns.delete(key);
      cancel();
    }
  }
}
