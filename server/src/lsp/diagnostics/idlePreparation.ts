// The idle preparation: once no check is due or running and the message loop is idle, what the
// open documents' next keystroke and completion will need is made ahead (idleWork.ts), in slices; a
// change or a check cancels it. Also the preparation that ends the workspace's first check.

import type { Bundle } from '../../language/model.js';
import { bundleOfFile } from '../../language/tree.js';
import { runInSlices } from '../../util/steps.js';
import type { FileId, Session, TreeCheck } from '../../workspace/session.js';
import type { TreeId } from '../../workspace/treeLocator.js';
import { IdleWork, OPENING_SLICE_MS, preparationSteps, treePreparationSteps } from '../idleWork.js';
import { SLICE_MS, type DiagnosticsOptions } from './context.js';

/** How long the server stays without a change before it prepares again for documents prepared for once (ms). */
const IDLE_QUIET_MS = 50;

export class IdlePreparation {
  /** What the open documents will need first, made ahead once checks have ended (idleWork.ts). */
  private readonly idle: IdleWork;
  /** Open documents whose concepts were prepared for once (later preparations wait for a pause in typing). */
  private readonly prepared = new Set<FileId>();

  constructor(
    private readonly session: Session,
    private readonly options: DiagnosticsOptions,
    private readonly pause: () => Promise<void>,
    /** Whether a check is due, scheduled or running (idle work waits for the next one to end). */
    private readonly busy: () => boolean,
    private readonly guard: (fn: () => void) => void,
  ) {
    this.idle = new IdleWork(pause);
  }

  /** Stops the preparation under way (a change, a check starting). */
  cancel(): void {
    this.idle.cancel();
  }

  /**
   * Makes ahead what the documents of these trees share (idleWork.ts `treePreparationSteps`), in
   * slices that let messages through: the end of the workspace's first check.
   */
  async prepareTrees(ids: readonly TreeId[]): Promise<void> {
    const t0 = performance.now();
    const trees = ids.flatMap((id) => this.session.lastCheck(id.key)?.tree ?? []);
    await runInSlices((function* () {
      for (const tree of trees) yield* treePreparationSteps(tree);
    })(), SLICE_MS, this.pause);
    this.options.trace?.(`mthds: prepared what the documents of ${trees.length} tree${trees.length === 1 ? '' : 's'} share in ${(performance.now() - t0).toFixed(1)} ms`);
  }

  /**
   * Once the message loop is idle and no check is due or running, makes ahead what the open
   * documents' next keystroke and completion will need (idleWork.ts), in slices; a change cancels it.
   */
  prepareWhenIdle(): void {
    if (this.busy()) return;
    const t0 = performance.now();
    // A document just opened gets its concepts prepared at once, between keystrokes if typing has
    // begun (concept references are the ones most often typed, and their tables are the smaller).
    // Everything else waits for typing to pause: the pipes' tables (five times the names, made for
    // the first time only when asked), and the tables of a document prepared for already, which
    // change only when a declaration does (a keystroke would otherwise wait for a slice each time).
    const open = new Set(this.session.openFiles());
    for (const file of this.prepared) if (!open.has(file)) this.prepared.delete(file);
    const fresh = [...open].some((file) => !this.prepared.has(file));
    const kinds = fresh ? (['concepts'] as const) : (['concepts', 'pipes'] as const);
    const documentation = this.options.documentationFormat?.() ?? 'markdown';
    let any = false;
    const make = (): Generator<void, void> | undefined => {
      const work: Array<{ tree: NonNullable<TreeCheck['tree']>; bundles: Bundle[] }> = [];
      const byTree = new Map<string, FileId[]>();
      for (const file of this.session.openFiles()) {
        const key = this.session.treeOf(file).key;
        const files = byTree.get(key) ?? [];
        files.push(file);
        byTree.set(key, files);
      }
      for (const [key, files] of byTree) {
        const tree = this.session.lastCheck(key)?.tree;
        if (!tree) continue;
        const bundles: Bundle[] = [];
        for (const file of files) {
          const bundle = bundleOfFile(tree, file);
          if (bundle) bundles.push(bundle);
        }
        if (bundles.length > 0) work.push({ tree, bundles });
      }
      if (work.length === 0) return undefined;
      any = true;
      return (function* () {
        for (const { tree, bundles } of work) yield* preparationSteps(tree, bundles, kinds, documentation);
      })();
    };
    void this.idle.run(make, this.busy, fresh ? 0 : IDLE_QUIET_MS, fresh ? OPENING_SLICE_MS : undefined).then(
      (done) => {
        if (any) this.options.trace?.(`mthds: ${done ? 'prepared ahead' : 'preparation cancelled'} (${kinds.join(', ')}) after ${(performance.now() - t0).toFixed(1)} ms`);
        if (!done) return;
        for (const file of open) this.prepared.add(file);
        // The rest once typing pauses.
        if (fresh) this.prepareWhenIdle();
      },
      (error: unknown) =>
        this.guard(() => {
          throw error;
        }),
    );
  }

}
