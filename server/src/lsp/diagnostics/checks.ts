// The check scheduler: checks trees when their documents change (debounced, the last change always
// checked) and after file events (one update per burst), in slices that yield to the message loop;
// each finished check goes to the publisher. The one place a check of the language server starts,
// but for `checkNow` (rename, the graph, the runner's commands: what must not work on older text).

import { runInSlices, runSlice } from '../../util/steps.js';
import type { FileId, Session, TreeCheck } from '../../workspace/session.js';
import type { TreeId } from '../../workspace/treeLocator.js';
import { oneTurn } from '../messageTurns.js';
import { checkedText } from '../views.js';
import { SLICE_MS, type DiagnosticsOptions } from './context.js';
import type { IdlePreparation } from './idlePreparation.js';
import type { Publisher } from './publisher.js';

/**
 * How many notifications a slice of publishing leaves unwritten at most: vscode-jsonrpc writes one
 * message per turn of the event loop, in order, so the answer to a request handled after a slice
 * is written after every notification that slice sent.
 */
const UNWRITTEN_PER_SLICE = 32;
/** File events wait this long for the next of a burst before their update starts (ms)... */
const UPDATE_QUIET_MS = 15;
/** ...but never longer than this after the first (ms). */
const UPDATE_MAX_WAIT_MS = 250;
/**
 * A burst still arriving while its update runs stops that update's check (left unfinished, it
 * commits nothing) and the update starts again once the burst pauses: a checkout told file by file
 * is otherwise checked half switched, then again. For this long after the burst's first event at
 * most (ms): a flood of events that never pauses still gets its update to the end.
 */
const UPDATE_RESTART_MAX_MS = 5000;

export class CheckScheduler {
  private readonly timers = new Map<string, () => void>();
  private flushing: Promise<void> | undefined;
  /** A background update is scheduled (file events arriving meanwhile join it). */
  private updateScheduled = false;
  private updateTimer: NodeJS.Timeout | undefined;
  private burstStart = 0;
  /** When the last file event arrived (the quiet before a burst, traced when it starts). */
  private lastEventAt = -Infinity;
  /** When the first event of the bursts that restarted updates arrived (UPDATE_RESTART_MAX_MS). */
  private restartsFrom = 0;
  /** How many times file events arriving stopped the running checks (see sliced). */
  private superseded = 0;
  /** Whether the running flush is the update of file events (the start-up check is never stopped). */
  private updateRunning = false;
  /** The check in slices running for each tree (an older one still running is stale). */
  private readonly running = new Map<string, number>();
  private runs = 0;
  /** Files changed on disk to read ahead of their update (preload), and whether that runs. */
  private readonly toPreload = new Set<FileId>();
  private preloading = false;
  /** Requests waiting for the result of a tree's check in slices (firstCheck), by tree. */
  private readonly resultWaiters = new Map<string, Array<() => void>>();
  private lastDocumentChange = -Infinity;
  private workspaceCheck: Promise<void> = Promise.resolve();
  /** The start-up check of the workspace is under way (its walk ends by marking every tree due). */
  private workspaceChecking = false;

  constructor(
    private readonly session: Session,
    private readonly options: DiagnosticsOptions,
    private readonly pause: () => Promise<void>,
    private readonly publisher: Publisher,
    private readonly idle: IdlePreparation,
    private readonly guard: (fn: () => void) => void,
  ) {}

  /** The background check of the workspace: pulls of the whole workspace wait for it. */
  get workspaceReady(): Promise<void> {
    return this.workspaceCheck;
  }

  setWorkspaceReady(ready: Promise<void>): void {
    this.workspaceCheck = ready;
    this.workspaceChecking = true;
    void ready.finally(() => {
      if (this.workspaceCheck === ready) this.workspaceChecking = false;
    });
  }

  /** How long ago a document was last opened or changed (ms; Infinity: never). */
  msSinceDocumentChange(): number {
    return performance.now() - this.lastDocumentChange;
  }

  /** A document was opened or changed: its tree is checked after the debounce delay. */
  documentChanged(id: TreeId): void {
    this.lastDocumentChange = performance.now();
    this.schedule(id);
  }

  /** Schedules a check of a tree; a later call restarts the delay, so the last change wins. */
  schedule(id: TreeId): void {
    this.idle.cancel();
    this.timers.get(id.key)?.();
    const delay = this.options.debounceMs();
    const run = (): void => {
      this.timers.delete(id.key);
      this.guard(() => {
        if (this.session.hasTree(id.key) && this.session.isDirty(id.key)) void this.checkScheduled(id);
      });
    };
    if (delay <= 0) {
      // Three turns of the message loop: the connection takes one message per turn, so a request
      // sent right after the change (a completion) is handled in the second, and its answer is
      // written in the third (vscode-jsonrpc's writer takes a turn): the answer leaves before the
      // check's first slice.
      let handle = setImmediate(() => (handle = setImmediate(() => (handle = setImmediate(run)))));
      this.timers.set(id.key, () => clearImmediate(handle));
    } else {
      const handle = setTimeout(run, delay);
      this.timers.set(id.key, () => clearTimeout(handle));
    }
  }

  /** Checks a tree now, cancelling a pending delayed check, and publishes what changed. */
  checkNow(id: TreeId): TreeCheck {
    this.idle.cancel();
    this.timers.get(id.key)?.();
    this.timers.delete(id.key);
    const t0 = performance.now();
    const result = this.session.check(id);
    this.publisher.publish(result);
    this.options.trace?.(`mthds: checked ${id.key} in ${(performance.now() - t0).toFixed(1)} ms`);
    return result;
  }

  /**
   * Makes the tree of `file` current, for what must not work on an older text (rename, the method
   * graph, the runner commands) and for a tree never checked; requests answer from views.ts
   * instead. While a background update of files changed on disk is under way and no document of
   * the tree changed since, the latest consistent state answers, and the update publishes.
   */
  ensureCurrent(file: FileId): TreeCheck {
    const id = this.session.treeOf(file);
    const last = this.session.lastCheck(id.key);
    if (last?.tree && !this.session.isDirty(id.key)) return last;
    if (last?.tree && this.updating() && !this.publisher.touchedIn(id.key)) return last;
    return this.checkNow(id);
  }

  /**
   * Resolves once a request on `file` can answer from a check of its tree without checking it
   * itself: at once when a check of its tree saw the file, or when no check of it is scheduled or running (the
   * request then checks it, ensureCurrent); else once the check in slices of its tree has its
   * result, before that result is published (started now when still waiting for its delay; not
   * during the workspace's start-up check, whose walk would make the tree due again). A
   * request on a document just opened (code actions) so needs the check's findings only: other
   * requests go on between the slices, and its answer leaves before the diagnostics, which can be
   * thousands for one file.
   */
  firstCheck(file: FileId): Promise<void> {
    const id = this.session.treeOf(file);
    const last = this.session.lastCheck(id.key);
    // A check saw the file (its findings carry over to the text since), or none will come.
    if ((last?.tree && (last.findings.has(file) || checkedText(last.tree, file) !== undefined)) || !this.session.hasTree(id.key) || !this.session.isDirty(id.key)) return Promise.resolve();
    const waiting = new Promise<void>((resolve) => {
      const list = this.resultWaiters.get(id.key) ?? [];
      list.push(resolve);
      this.resultWaiters.set(id.key, list);
    });
    if (!this.running.has(id.key)) {
      if (!this.timers.has(id.key) || this.updating() || this.workspaceChecking) {
        this.wakeResultWaiters(id.key);
        return Promise.resolve();
      }
      this.timers.get(id.key)!();
      this.timers.delete(id.key);
      this.guard(() => void this.checkScheduled(id));
    }
    return waiting;
  }

  /** Wakes the requests waiting for a tree's check; returns whether there were any. */
  private wakeResultWaiters(key: string): boolean {
    const list = this.resultWaiters.get(key);
    if (!list) return false;
    this.resultWaiters.delete(key);
    for (const wake of list) wake();
    return true;
  }

  private updating(): boolean {
    return this.updateScheduled || this.flushing !== undefined;
  }

  /**
   * Files changed on disk (their trees are marked): one background update follows. Every event
   * arriving while it is scheduled or running joins it (the running one re-checks what was marked
   * meanwhile before it ends), so N notifications cost one update, not N.
   */
  requestUpdate(): void {
    this.idle.cancel();
    const now = Date.now();
    if (this.flushing === undefined && !this.updateScheduled) this.restartsFrom = now;
    if (!this.updateScheduled && !this.updateRunning) {
      // Which events an update joined, seen from the server: a client (or a machine) that pauses
      // longer than the quiet window between two events makes two bursts, and two updates.
      const quiet = Number.isFinite(this.lastEventAt) ? `${now - this.lastEventAt} ms` : 'no earlier event';
      this.options.trace?.(`mthds: file events began a burst (quiet before: ${quiet})`);
    } else if (this.updateRunning && now - this.restartsFrom < UPDATE_RESTART_MAX_MS) this.superseded += 1;
    this.lastEventAt = now;
    if (this.updateScheduled) {
      // A burst (a checkout, a generator) keeps coming: wait for it to pause, but not for ever.
      if (now - this.burstStart < UPDATE_MAX_WAIT_MS) this.updateTimer?.refresh();
      return;
    }
    this.updateScheduled = true;
    this.burstStart = now;
    this.updateTimer = setTimeout(() => {
      this.updateScheduled = false;
      this.updateTimer = undefined;
      void this.flushDirty(undefined, true);
    }, UPDATE_QUIET_MS);
  }

  /**
   * Files changed on disk, told with their update: read and parsed in slices while the update waits
   * for the burst to end (`Session.preloadSteps`). Stops when a check or an update runs: it reads
   * what is left itself.
   */
  preload(files: readonly FileId[]): void {
    for (const file of files) this.toPreload.add(file);
    if (this.preloading || this.toPreload.size === 0) return;
    this.preloading = true;
    // On the next turn: the notifications already received are handled first, each as short as it can be.
    void new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.preloadInSlices()).finally(() => {
      this.preloading = false;
    });
  }

  private async preloadInSlices(): Promise<void> {
    const busy = (): boolean => this.flushing !== undefined || this.running.size > 0;
    while (this.toPreload.size > 0 && !busy()) {
      const files = [...this.toPreload];
      this.toPreload.clear();
      try {
        const parsed = await runInSlices(untilStopped(this.session.preloadSteps(files), busy), SLICE_MS, this.pause);
        if (parsed > 0) this.options.trace?.(`mthds: read ${parsed} changed files ahead of their update`);
      } catch (error) {
        this.guard(() => {
          throw error;
        });
        return;
      }
    }
    // Left for later when a check runs: an update stopped by the burst that goes on leaves them to read.
  }

  /**
   * Checks every tree due for a check (trees of open documents first), in slices that yield to the
   * message loop so that requests are served meanwhile; trees marked while it runs are checked
   * before it ends. `onResults`: called when the last tree due has its results, before they are
   * published (the start-up's collection begins then, startupCheck.ts).
   */
  flushDirty(onProgress?: (done: number, total: number) => void, update = false, onResults?: () => void): Promise<void> {
    const run = async (): Promise<void> => {
      this.updateRunning = update;
      const endBurst = update ? this.options.heapForBurst?.() : undefined;
      try {
        await this.flushRounds(onProgress, onResults);
      } finally {
        this.updateRunning = false;
        endBurst?.();
      }
    };
    const previous = this.flushing ?? Promise.resolve();
    const next = previous.then(run, run).finally(() => {
      if (this.flushing !== next) return;
      this.flushing = undefined;
      // The flush read every file changed before it: none is left to read ahead, but for a burst still coming.
      if (!this.updateScheduled) this.toPreload.clear();
      else this.preload([]);
      // A keystroke's check that found this update running left its tree to it: none is left due.
      if (!this.updateScheduled) for (const id of this.session.dirtyTrees()) if (!this.timers.has(id.key) && !this.running.has(id.key) && this.session.hasOpenDocument(id.key)) this.schedule(id);
      this.idle.prepareWhenIdle();
    });
    this.flushing = next;
    return next;
  }

  /** The rounds of a flush: every tree due, again while trees are marked meanwhile, then the closing steps. */
  private async flushRounds(onProgress?: (done: number, total: number) => void, onResults?: () => void): Promise<void> {
    for (let round = 0; ; round++) {
      // Trees marked meanwhile by a burst of file events wait for its update (scheduled).
      if (round > 0 && this.updateScheduled) break;
      const due = this.session.dirtyTrees();
      if (due.length === 0) break;
      const open = new Set(this.session.openFiles().map((f) => this.session.treeOf(f).key));
      due.sort((a, b) => Number(open.has(b.key)) - Number(open.has(a.key)));
      let done = 0;
      for (const id of due) {
        if (this.session.isDirty(id.key)) {
          await this.checkInSlices(id, done === due.length - 1 ? onResults : undefined);
          this.session.releaseTree(id.key);
        }
        done += 1;
        onProgress?.(done, due.length);
        await this.pause();
      }
    }
    // The update that follows closes.
    if (this.updateRunning && this.updateScheduled) return;
    // Files of no tree are cleared; trees of closed files keep their findings, their parsed
    // documents are parsed again when due. In slices: both go over every file.
    await runInSlices(this.closingSteps(), SLICE_MS, this.pause);
  }

  /**
   * A document change's check, in slices like a background one: a request arriving right after a
   * keystroke (completion) is answered between two slices instead of after the whole check. Left
   * stale by a check that ended meanwhile, the tree is scheduled again when it is still due.
   */
  private async checkScheduled(id: TreeId): Promise<void> {
    // A check of the tree is running (an update's, or an earlier keystroke's): it is not restarted
    // (keystrokes coming faster than a check ends would never let one end); the tree, marked
    // again, is checked once that one ends, by whoever started it.
    if (this.running.has(id.key)) return;
    if (await this.checkInSlices(id)) return;
    if (this.session.hasTree(id.key) && this.session.isDirty(id.key) && !this.timers.has(id.key) && !this.updating()) this.schedule(id);
  }

  /**
   * Checks a tree in slices. A check that ends meanwhile (one run at once) or a newer check in
   * slices of the same tree (an update's) makes this one stale: it is left unfinished, and the tree
   * stays due when it was marked again. Returns whether a newer check in slices took over.
   */
  private async checkInSlices(id: TreeId, onResults?: () => void): Promise<boolean> {
    this.idle.cancel();
    const run = ++this.runs;
    this.running.set(id.key, run);
    try {
      await this.sliced(id, run, onResults);
    } finally {
      if (this.running.get(id.key) === run) this.running.delete(id.key);
      // Left unfinished (stale, or failed): a waiting request checks the tree itself, or waits for
      // the check that took over.
      if (!this.running.has(id.key)) this.wakeResultWaiters(id.key);
    }
    this.idle.prepareWhenIdle();
    return this.running.has(id.key);
  }

  /** A check is due, scheduled or running: idle work waits for the next one to end. */
  busy(): boolean {
    return this.timers.size > 0 || this.running.size > 0 || this.updating();
  }

  private async sliced(id: TreeId, run: number, onResults?: () => void): Promise<void> {
    const started = this.session.checksOf(id.key);
    const superseded = this.superseded;
    const stale = (): boolean => this.session.checksOf(id.key) !== started || this.running.get(id.key) !== run || this.superseded !== superseded;
    const t0 = performance.now();
    let steps: Generator<void, TreeCheck>;
    try {
      steps = this.session.checkSteps(id);
    } catch (error) {
      this.guard(() => {
        throw error;
      });
      return;
    }
    // This check reads what a pending keystroke check of the tree would.
    this.timers.get(id.key)?.();
    this.timers.delete(id.key);
    for (;;) {
      let sliceEnd = performance.now() + SLICE_MS;
      let result: TreeCheck | undefined;
      try {
        result = runSlice(steps, sliceEnd)?.value;
      } catch (error) {
        this.guard(() => {
          throw error;
        });
        return;
      }
      if (result) {
        onResults?.();
        if (this.wakeResultWaiters(id.key)) {
          // The requests that waited for this result answer first (their answers are handed to the
          // connection within this turn's microtasks); then the publishing, unless a newer check
          // of the tree came meanwhile (it publishes).
          await this.pause();
          if (this.session.lastCheck(id.key) !== result) {
            this.publisher.changed();
            return;
          }
          sliceEnd = performance.now() + SLICE_MS;
        }
        const published = performance.now();
        await this.publishInSlices(result, sliceEnd);
        this.options.trace?.(`mthds: checked ${id.key} in ${(performance.now() - t0).toFixed(1)} ms (publishing ${(performance.now() - published).toFixed(1)} ms)`);
        return;
      }
      await this.pause();
      if (stale()) return;
    }
  }

  /**
   * Publishes a check's results in slices (the open documents first): a large update changes the
   * diagnostics of many files, and requests are served between the batches. A newer check of the
   * tree publishes every difference itself: this one then stops (pull clients are told to ask
   * again, for what it published already).
   */
  private async publishInSlices(result: TreeCheck, firstSliceEnd: number): Promise<void> {
    const steps = this.publisher.publishSteps(result);
    for (let sliceEnd = firstSliceEnd; ; sliceEnd = performance.now() + SLICE_MS) {
      let done = false;
      this.guard(() => {
        done = runSlice(steps, sliceEnd, () => this.publisher.unwritten >= UNWRITTEN_PER_SLICE) !== undefined;
      });
      if (done) return;
      // The notifications are written first: a request's answer would otherwise wait behind those
      // of every slice, the writer taking a turn per message and a pause ending after two.
      const start = performance.now();
      while (this.publisher.unwritten > 0 && performance.now() - start < SLICE_MS) await oneTurn();
      await this.pause();
      if (this.session.lastCheck(result.id.key) !== result) {
        this.publisher.changed();
        return;
      }
    }
  }

  /** The end of an update, in steps: files of no tree cleared, the parsed documents of closed trees released. */
  private *closingSteps(): Generator<void, void> {
    yield* this.publisher.dropStaleSteps();
    yield* this.session.releaseClosedTreesSteps();
  }

}

/** The steps of `steps` until `stop` says so (checked before each); returns how many ran. */
function* untilStopped<T>(steps: Generator<void, T>, stop: () => boolean): Generator<void, number> {
  for (let n = 0; ; n++) {
    if (stop() || steps.next().done) return n;
    yield;
  }
}
