// Diagnostics: checks trees when their documents change (debounced, the last change always
// checked), then either pushes the results per file (publishDiagnostics, only files whose results
// changed) or keeps them for the client to pull (textDocument/diagnostic, workspace/diagnostic,
// with result ids so that unchanged results answer `unchanged`). Once typing pauses, a tree whose
// static checks found no error is dry-run in the background and its findings join the tree's.

import type {
  CancellationToken,
  Connection,
  Diagnostic,
  DocumentDiagnosticParams,
  DocumentDiagnosticReport,
  PublishDiagnosticsParams,
  WorkspaceDiagnosticParams,
  WorkspaceDiagnosticReport,
  WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import type { Finding } from '../check/finding.js';
import type { Bundle } from '../language/model.js';
import { bundleOfFile } from '../language/tree.js';
import type { DryRunner } from './host.js';
import type { FileId, Session, TreeCheck } from '../workspace/session.js';
import type { TreeId } from '../workspace/treeLocator.js';
import { findingToDiagnostic, type TextLocator } from './convert.js';
import { runInSlices, runSlice, runSteps } from '../util/steps.js';
import { IdleWork, OPENING_SLICE_MS, preparationSteps, treePreparationSteps } from './idleWork.js';
import type { MarkupFormat } from './markup.js';
import { oneTurn } from './messageTurns.js';
import { checkedText } from './views.js';

interface Published {
  treeKey: string;
  uri: string;
  /** The findings the own diagnostics were made of (the same list means the same diagnostics). */
  source?: readonly Finding[];
  /** The diagnostics of the checks (source mthds). */
  own: Diagnostic[];
  /** What the client gets: the own ones and the runner's (source runner). */
  diagnostics: Diagnostic[];
  json: string;
  resultId: string;
}

/** What the diagnostics send through: the connection's (a publisher nobody hears gives its own). */
export interface DiagnosticsConnection {
  sendDiagnostics: Connection['sendDiagnostics'];
  languages: { diagnostics: Pick<Connection['languages']['diagnostics'], 'refresh'> };
}

export interface DiagnosticsOptions {
  /** The dry run after clean static checks; absent where none can run (the browser). */
  dryRun?: DryRunner;
  /** Pull mode: the client asks; nothing is pushed. */
  pull: boolean;
  /** The client accepts workspace/diagnostic/refresh. */
  refreshSupport: boolean;
  debounceMs: () => number;
  versionOf: (file: FileId) => number | undefined;
  log: (message: string) => void;
  /** Traces each finished check of a tree (`$/logTrace` when the client asks for traces). */
  trace?: (message: string) => void;
  /** The pause after a check before the tree's dry run starts (ms); 0: no dry run. */
  dryRunDelayMs?: () => number;
  /**
   * How a check in slices yields between two slices: until the messages queued meanwhile are
   * handled (`MessageTurns.pause`); by default one turn of the event loop.
   */
  pause?: () => Promise<void>;
  /**
   * The findings of a file for its current text from the latest finished check (carried over
   * when its check is pending: `Views.findingsOf`); a pull answers from them without checking.
   */
  findingsOf?: (file: FileId) => { findings: readonly Finding[]; ahead: boolean } | undefined;
  /** The format of the client's completion documentation (what the preparation at idle renders). */
  documentationFormat?: () => MarkupFormat;
}

/** How long a slice of a check (and of its publishing) runs before it yields to the message loop (ms). */
const SLICE_MS = 8;
/** How long the server stays without a change before it prepares again for documents prepared for once (ms). */
const IDLE_QUIET_MS = 50;
/** How many files' diagnostics publishing converts and sends between two pauses. */
const PUBLISHED_PER_STEP = 8;
/**
 * How many notifications a slice of publishing leaves unwritten at most: vscode-jsonrpc writes one
 * message per turn of the event loop, in order, so the answer to a request handled after a slice
 * is written after every notification that slice sent.
 */
const UNWRITTEN_PER_SLICE = 32;
/** How many published files the search for files of no tree goes through between two pauses. */
const STALE_PER_STEP = 512;
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

/** How long a workspace pull with nothing new waits for a change before answering anyway. */
const WORKSPACE_PULL_HOLD_MS = 60_000;
/** Every file of a tree is due for publishing. */
const ALL = 'all';

/** The longest a pull from a client that cannot be asked again waits for a document's check (ms). */
const CHECK_WAIT_MS = 30_000;
/** The result id of the empty report that clears a file that is gone. */
const CLEARED = 'cleared';

export class Diagnostics {
  private readonly published = new PublishedFiles();
  private readonly timers = new Map<string, () => void>();
  /** Open documents changed since their tree was last checked: they are published even unchanged. */
  private readonly touched = new Set<FileId>();
  private resultCounter = 0;
  private waiters: Array<() => void> = [];
  private workspaceReady: Promise<void> = Promise.resolve();
  /** Diagnostics of the runner's last validation, per file, with the tree they belong to. */
  private readonly runner = new Map<FileId, { treeKey: string; diagnostics: Diagnostic[] }>();
  private flushing: Promise<void> | undefined;
  /** A background update is scheduled (file events arriving meanwhile join it). */
  private updateScheduled = false;
  private updateTimer: NodeJS.Timeout | undefined;
  private burstStart = 0;
  /** When the first event of the bursts that restarted updates arrived (UPDATE_RESTART_MAX_MS). */
  private restartsFrom = 0;
  /** How many times file events arriving stopped the running checks (see sliced). */
  private superseded = 0;
  /** Whether the running flush is the update of file events (the start-up check is never stopped). */
  private updateRunning = false;
  /** Findings of each tree's last dry run, per file (the check they complete made them due). */
  private readonly dry = new Map<FileId, { treeKey: string; diagnostics: Diagnostic[] }>();
  /** The pending or running dry run of each tree: cancelling it stops the timer or aborts the run. */
  private readonly dryRuns = new Map<string, () => void>();
  /** The check in slices running for each tree (an older one still running is stale). */
  private readonly running = new Map<string, number>();
  /** Files a pull was answered for ahead of their check: pull clients are asked again once checked. */
  private readonly answeredAhead = new Set<FileId>();
  /** Pulls waiting for the next finished check of a tree (clients that cannot be asked again). */
  private readonly checkWaiters = new Map<string, Array<() => void>>();
  private runs = 0;
  /** Per tree, the files whose diagnostics are still to be made again (ALL: every file of the tree). */
  private readonly pending = new Map<string, Set<FileId> | typeof ALL>();
  /** What the open documents will need first, made ahead once checks have ended (idleWork.ts). */
  private readonly idle = new IdleWork(() => this.pause());
  /** Open documents whose concepts were prepared for once (later preparations wait for a pause in typing). */
  private readonly prepared = new Set<FileId>();
  /** Diagnostics notifications handed to the connection and not yet written. */
  private unwritten = 0;

  constructor(
    private readonly connection: DiagnosticsConnection,
    private readonly session: Session,
    private readonly locator: TextLocator,
    private readonly options: DiagnosticsOptions,
  ) {}

  // ---- scheduling ------------------------------------------------------------------------------

  /** Yields between two slices (requests and notifications queued meanwhile go first). */
  private pause(): Promise<void> {
    return (this.options.pause ?? oneTurn)();
  }

  /** How long ago a document was last opened or changed (ms; Infinity: never). */
  msSinceDocumentChange(): number {
    return performance.now() - this.lastDocumentChange;
  }

  private lastDocumentChange = -Infinity;

  /** A document was opened or changed: check its tree after the debounce delay. */
  documentChanged(file: FileId, id: TreeId): void {
    this.lastDocumentChange = performance.now();
    this.touched.add(file);
    this.dropDryRun(id.key);
    // The runner's verdict was about the text before this change: its positions no longer hold.
    for (const [f, r] of this.runner) {
      if (r.treeKey !== id.key) continue;
      this.runner.delete(f);
      // Published with the runner's: to be made again.
      this.remake(f);
    }
    this.schedule(id);
  }

  /** Shows a runner's validation errors (replacing the previous ones of the tree). */
  setRunnerDiagnostics(treeKey: string, perFile: ReadonlyMap<FileId, Diagnostic[]>): void {
    for (const [f, r] of this.runner) if (r.treeKey === treeKey) this.runner.delete(f);
    for (const [file, diagnostics] of perFile) if (diagnostics.length > 0) this.runner.set(file, { treeKey, diagnostics });
    let changed = false;
    for (const [file, p] of this.published) {
      if (p.treeKey !== treeKey) continue;
      if (this.update(file, p.uri, treeKey, p.own, true)) changed = true;
    }
    if (changed) this.changed();
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

  /**
   * Makes ahead what the documents of these trees share (idleWork.ts `treePreparationSteps`), in
   * slices that let messages through: the end of the workspace's first check.
   */
  async prepareTrees(ids: readonly TreeId[]): Promise<void> {
    const t0 = performance.now();
    const trees = ids.flatMap((id) => this.session.lastCheck(id.key)?.tree ?? []);
    await runInSlices((function* () {
      for (const tree of trees) yield* treePreparationSteps(tree);
    })(), SLICE_MS, () => this.pause());
    this.options.trace?.(`mthds: prepared what the documents of ${trees.length} tree${trees.length === 1 ? '' : 's'} share in ${(performance.now() - t0).toFixed(1)} ms`);
  }

  /** Checks a tree now, cancelling a pending delayed check, and publishes what changed. */
  checkNow(id: TreeId): TreeCheck {
    this.idle.cancel();
    this.timers.get(id.key)?.();
    this.timers.delete(id.key);
    const t0 = performance.now();
    const result = this.session.check(id);
    this.publish(result);
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
    if (last?.tree && this.updating() && !this.hasTouched(id.key)) return last;
    return this.checkNow(id);
  }

  private updating(): boolean {
    return this.updateScheduled || this.flushing !== undefined;
  }

  private hasTouched(key: string): boolean {
    for (const file of this.touched) if (this.session.treeOf(file).key === key) return true;
    return false;
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
    else if (this.updateRunning && now - this.restartsFrom < UPDATE_RESTART_MAX_MS) this.superseded += 1;
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
   * Checks every tree due for a check (trees of open documents first), in slices that yield to the
   * message loop so that requests are served meanwhile; trees marked while it runs are checked
   * before it ends.
   */
  flushDirty(onProgress?: (done: number, total: number) => void, update = false): Promise<void> {
    const run = async (): Promise<void> => {
      this.updateRunning = update;
      try {
        await this.flushRounds(onProgress);
      } finally {
        this.updateRunning = false;
      }
    };
    const previous = this.flushing ?? Promise.resolve();
    const next = previous.then(run, run).finally(() => {
      if (this.flushing !== next) return;
      this.flushing = undefined;
      // A keystroke's check that found this update running left its tree to it: none is left due.
      if (!this.updateScheduled) for (const id of this.session.dirtyTrees()) if (!this.timers.has(id.key) && !this.running.has(id.key) && this.session.hasOpenDocument(id.key)) this.schedule(id);
      this.prepareWhenIdle();
    });
    this.flushing = next;
    return next;
  }

  /** The rounds of a flush: every tree due, again while trees are marked meanwhile, then the closing steps. */
  private async flushRounds(onProgress?: (done: number, total: number) => void): Promise<void> {
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
          await this.checkInSlices(id);
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
    await runInSlices(this.closingSteps(), SLICE_MS, () => this.pause());
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
  private async checkInSlices(id: TreeId): Promise<boolean> {
    this.idle.cancel();
    const run = ++this.runs;
    this.running.set(id.key, run);
    try {
      await this.sliced(id, run);
    } finally {
      if (this.running.get(id.key) === run) this.running.delete(id.key);
    }
    this.prepareWhenIdle();
    return this.running.has(id.key);
  }

  /** A check is due, scheduled or running: idle work waits for the next one to end. */
  private busy(): boolean {
    return this.timers.size > 0 || this.running.size > 0 || this.updating();
  }

  /**
   * Once the message loop is idle and no check is due or running, makes ahead what the open
   * documents' next keystroke and completion will need (idleWork.ts), in slices; a change cancels it.
   */
  private prepareWhenIdle(): void {
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
    void this.idle.run(make, () => this.busy(), fresh ? 0 : IDLE_QUIET_MS, fresh ? OPENING_SLICE_MS : undefined).then(
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

  private async sliced(id: TreeId, run: number): Promise<void> {
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
      const sliceEnd = performance.now() + SLICE_MS;
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
        await this.publishInSlices(result, sliceEnd);
        this.options.trace?.(`mthds: checked ${id.key} in ${(performance.now() - t0).toFixed(1)} ms`);
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
    const steps = this.publishSteps(result);
    for (let sliceEnd = firstSliceEnd; ; sliceEnd = performance.now() + SLICE_MS) {
      let done = false;
      this.guard(() => {
        done = runSlice(steps, sliceEnd, () => this.unwritten >= UNWRITTEN_PER_SLICE) !== undefined;
      });
      if (done) return;
      // The notifications are written first: a request's answer would otherwise wait behind those
      // of every slice, the writer taking a turn per message and a pause ending after two.
      const start = performance.now();
      while (this.unwritten > 0 && performance.now() - start < SLICE_MS) await oneTurn();
      await this.pause();
      if (this.session.lastCheck(result.id.key) !== result) {
        this.changed();
        return;
      }
    }
  }

  /** The background check of the workspace: pulls of the whole workspace wait for it. */
  setWorkspaceReady(ready: Promise<void>): void {
    this.workspaceReady = ready;
  }

  // ---- publishing --------------------------------------------------------------------------------

  private publish(result: TreeCheck): void {
    runSteps(this.publishSteps(result));
  }

  /**
   * Publishes what changed in a check, the open documents first; pauses (yields) after every
   * `PUBLISHED_PER_STEP` files converted, so that a caller can spread a large update over turns.
   */
  private *publishSteps(result: TreeCheck): Generator<void, void> {
    const key = result.id.key;
    // The dry run's findings were about the versions this check replaces.
    this.dropDryRun(key);
    // The files to visit: those whose findings changed in this check and in earlier ones whose
    // publishing was left unfinished (a check of the same files tells which; otherwise all).
    const due = result.changed === undefined ? ALL : this.pending.get(key) ?? new Set<FileId>();
    if (due !== ALL) for (const file of result.changed!) due.add(file);
    this.pending.set(key, due);
    let othersChanged = false;
    let converted = 0;
    const open = new Set<FileId>(this.session.openAmong(result.findings.keys(), result.findings.size, (file) => result.findings.has(file)));
    // An open document edited after the check read it: its findings' ranges are of an older text.
    // It stays touched, and the check its edit made due publishes it.
    const tree = result.tree;
    const one = (file: FileId, findings: readonly Finding[]): boolean => {
      const seen = tree && open.has(file) ? checkedText(tree, file) : undefined;
      if (seen !== undefined && seen !== this.session.textOf(file)) return false;
      // A pull answered ahead of this check: the client is asked to pull again.
      if (this.answeredAhead.delete(file)) othersChanged = true;
      const wasTouched = this.touched.delete(file);
      const previous = this.published.get(file);
      if (previous?.source === findings && previous.treeKey === key) {
        // The same findings: nothing to convert or compare (the edited document still hears back).
        if (wasTouched && !this.options.pull) this.send(previous.uri, file, previous.diagnostics);
        return false;
      }
      const own = findings.map((f) => findingToDiagnostic(f, this.locator));
      // A file's URI is made once; an edited document's may be the client's own spelling, just opened.
      const uri = previous && !wasTouched ? previous.uri : this.locator.uriOf(file);
      if (this.update(file, uri, key, own, wasTouched, findings) && !wasTouched) othersChanged = true;
      return true;
    };
    for (const file of open) {
      one(file, result.findings.get(file)!);
      if (due !== ALL) due.delete(file);
    }
    if (due === ALL) {
      for (const [file, findings] of result.findings) {
        if (open.has(file)) continue;
        if (one(file, findings) && ++converted % PUBLISHED_PER_STEP === 0) yield;
      }
      for (const file of [...this.published.ofTree(key)]) {
        if (!result.findings.has(file)) {
          this.clear(file);
          othersChanged = true;
          if (++converted % PUBLISHED_PER_STEP === 0) yield;
        }
      }
      if (this.pending.get(key) === ALL) this.pending.set(key, new Set());
    } else {
      for (const file of due) {
        due.delete(file);
        const findings = result.findings.get(file);
        if (findings) {
          if (one(file, findings) && ++converted % PUBLISHED_PER_STEP === 0) yield;
        } else if (this.published.get(file)?.treeKey === key) {
          this.clear(file);
          othersChanged = true;
          if (++converted % PUBLISHED_PER_STEP === 0) yield;
        }
      }
    }
    if (othersChanged) this.changed();
    this.scheduleDryRun(result);
    this.wakeCheckWaiters(key);
  }

  /** Resolves at the next finished (and published) check of a tree, or after a while. */
  private nextCheckOf(key: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CHECK_WAIT_MS);
      const list = this.checkWaiters.get(key) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.checkWaiters.set(key, list);
    });
  }

  private wakeCheckWaiters(key: string): void {
    const list = this.checkWaiters.get(key);
    if (!list) return;
    this.checkWaiters.delete(key);
    for (const wake of list) wake();
  }

  // ---- the dry run ---------------------------------------------------------------------------------

  /**
   * After the static diagnostics of a tree holding an open document are out and typing has paused,
   * dry-runs it (when its static checks found no error, as `mthds check` does) and publishes its
   * findings with the tree's, unless a newer check or change of the tree came meanwhile.
   */
  private scheduleDryRun(result: TreeCheck): void {
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
          this.guard(() => this.publishDry(key, findings));
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

  private publishDry(key: string, findings: readonly Finding[]): void {
    const perFile = new Map<FileId, Diagnostic[]>();
    for (const f of findings) {
      const list = perFile.get(f.file) ?? [];
      list.push(findingToDiagnostic(f, this.locator));
      perFile.set(f.file, list);
    }
    for (const [file, diagnostics] of perFile) this.dry.set(file, { treeKey: key, diagnostics });
    let changed = false;
    for (const file of [...this.published.ofTree(key)]) {
      const p = this.published.get(file)!;
      if (perFile.has(file) && this.update(file, p.uri, key, p.own, false, p.source)) changed = true;
    }
    if (changed) this.changed();
  }

  /** The diagnostics of a file are to be made again at the next publishing of its tree. */
  private remake(file: FileId): void {
    const p = this.published.get(file);
    if (!p) return;
    delete p.source;
    const due = this.pending.get(p.treeKey) ?? new Set<FileId>();
    if (due !== ALL) due.add(file);
    this.pending.set(p.treeKey, due);
  }

  /** Cancels the pending or running dry run of a tree and forgets its findings (not re-sent here). */
  private dropDryRun(key: string): void {
    const cancel = this.dryRuns.get(key);
    if (cancel) {
      this.dryRuns.delete(key);
      cancel();
    }
    for (const [file, d] of this.dry) {
      if (d.treeKey !== key) continue;
      this.dry.delete(file);
      // Published with the dry run's: to be made again.
      this.remake(file);
    }
  }

  /**
   * Records the diagnostics of a file and pushes them when they changed (or when `force`: an
   * edited document always hears back). Returns whether they changed.
   */
  private update(file: FileId, uri: string, treeKey: string, own: Diagnostic[], force: boolean, source?: readonly Finding[]): boolean {
    const dry = this.dry.get(file)?.diagnostics;
    const extra = this.runner.get(file)?.diagnostics;
    const diagnostics = dry || extra ? [...own, ...(dry ?? []), ...(extra ?? [])] : own;
    const json = JSON.stringify(diagnostics);
    const previous = this.published.get(file);
    if (previous && previous.json === json && previous.uri === uri) {
      if (previous.treeKey !== treeKey) this.published.moveTo(file, previous, treeKey);
      previous.own = own;
      if (source) previous.source = source;
      else delete previous.source;
      if (force && !this.options.pull) this.send(uri, file, diagnostics);
      return false;
    }
    if (previous && previous.uri !== uri && !this.options.pull) this.notify({ uri: previous.uri, diagnostics: [] });
    const entry: Published = { treeKey, uri, own, diagnostics, json, resultId: this.nextResultId() };
    if (source) entry.source = source;
    this.published.set(file, entry);
    // A closed file never reported before and still clean needs no message.
    if (!this.options.pull && (previous || force || diagnostics.length > 0)) this.send(uri, file, diagnostics);
    return true;
  }

  private send(uri: string, file: FileId, diagnostics: Diagnostic[]): void {
    const version = this.options.versionOf(file);
    this.notify(version !== undefined ? { uri, version, diagnostics } : { uri, diagnostics });
  }

  /** Sends a file's diagnostics, counted until written. */
  private notify(params: PublishDiagnosticsParams): void {
    this.unwritten += 1;
    const written = (): void => {
      this.unwritten -= 1;
    };
    void Promise.resolve(this.connection.sendDiagnostics(params)).then(written, written);
  }

  /** Forgets (and clears in the client) the results of a file. */
  clear(file: FileId): void {
    const p = this.published.get(file);
    if (!p) return;
    this.published.delete(file);
    this.runner.delete(file);
    this.dry.delete(file);
    if (!this.options.pull) this.notify({ uri: p.uri, diagnostics: [] });
  }

  /** Clears every file of a tree that is gone (a closed untitled document, a tree outside the workspace). */
  dropTree(key: string): void {
    this.dropDryRun(key);
    this.pending.delete(key);
    this.wakeCheckWaiters(key);
    for (const file of [...this.published.ofTree(key)]) this.clear(file);
    this.changed();
  }

  /** The end of an update, in steps: files of no tree cleared, the parsed documents of closed trees released. */
  private *closingSteps(): Generator<void, void> {
    yield* this.dropStaleSteps();
    yield* this.session.releaseClosedTreesSteps();
  }

  /** Clears files whose tree no longer exists or no longer holds them. */
  private *dropStaleSteps(): Generator<void, void> {
    let any = false;
    let n = 0;
    for (const [file, p] of this.published) {
      if (++n % STALE_PER_STEP === 0) yield;
      const check = this.session.lastCheck(p.treeKey);
      if (!this.session.hasTree(p.treeKey) || !check || !check.findings.has(file)) {
        this.clear(file);
        any = true;
      }
    }
    if (any) this.changed();
  }

  private nextResultId(): string {
    this.resultCounter += 1;
    return String(this.resultCounter);
  }

  /** Results of files other than the edited ones changed: pull clients must ask again. */
  private changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
    if (this.options.pull && this.options.refreshSupport) this.connection.languages.diagnostics.refresh();
  }

  // ---- pull ----------------------------------------------------------------------------------------

  /**
   * A pull of one document, answered from the latest finished check (never waiting for a pending
   * one): when the document changed since, its findings carried over to the current text (a fresh
   * result id; the client is asked to pull again once the document is checked). A client that
   * cannot be asked again waits for that check instead (other requests are served meanwhile).
   */
  async documentReport(params: DocumentDiagnosticParams, file: FileId | undefined): Promise<DocumentDiagnosticReport> {
    if (file === undefined) return { kind: 'full', items: [] };
    let found = this.options.findingsOf?.(file);
    const key = this.session.treeOf(file).key;
    for (let waits = 0; found?.ahead && !this.options.refreshSupport && this.session.isDirty(key) && waits < 3; waits++) {
      await this.nextCheckOf(key);
      found = this.options.findingsOf?.(file);
    }
    if (found?.ahead) {
      this.answeredAhead.add(file);
      return { kind: 'full', resultId: this.nextResultId(), items: found.findings.map((f) => findingToDiagnostic(f, this.locator)) };
    }
    // Never checked (no finished check to answer from): checked now.
    if (!found) this.ensureCurrent(file);
    const p = this.published.get(file);
    if (!p) return { kind: 'full', items: [] };
    if (params.previousResultId === p.resultId) return { kind: 'unchanged', resultId: p.resultId };
    return { kind: 'full', resultId: p.resultId, items: p.diagnostics };
  }

  async workspaceReport(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    await this.workspaceReady;
    await this.flushDirty();
    const previous = new Map(params.previousResultIds.map((p) => [p.uri, p.value]));
    let report = this.workspaceItems(previous);
    // Nothing new for a client that already has everything: hold the request until something
    // changes (clients re-ask as soon as they get an answer), the client cancels, or a while passes.
    if (previous.size > 0 && report.every((r) => r.kind === 'unchanged') && !token.isCancellationRequested) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WORKSPACE_PULL_HOLD_MS);
        const wake = (): void => {
          clearTimeout(timer);
          resolve();
        };
        this.waiters.push(wake);
        token.onCancellationRequested(wake);
      });
      await this.flushDirty();
      report = this.workspaceItems(previous);
    }
    return { items: report };
  }

  private workspaceItems(previous: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    for (const [file, p] of this.published) {
      const version = this.options.versionOf(file) ?? null;
      if (previous.get(p.uri) === p.resultId) items.push({ kind: 'unchanged', uri: p.uri, version, resultId: p.resultId });
      else items.push({ kind: 'full', uri: p.uri, version, resultId: p.resultId, items: p.diagnostics });
    }
    // Files the client knew that are gone: an empty report clears them.
    const known = new Set(items.map((i) => i.uri));
    for (const [uri, resultId] of previous) {
      if (!known.has(uri) && resultId !== CLEARED) items.push({ kind: 'full', uri, version: null, resultId: CLEARED, items: [] });
    }
    return items;
  }

  /** The diagnostics last computed for a file (tests and code actions). */
  diagnosticsOf(file: FileId): Diagnostic[] | undefined {
    return this.published.get(file)?.diagnostics;
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.options.log(`mthds: check failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
}

/**
 * The published results by file, with the files of each tree listed: a tree's publishing visits
 * its own files, not every file published (thousands of single documents opened at once would
 * otherwise cost a pass over all of them per check).
 */
class PublishedFiles extends Map<FileId, Published> {
  private readonly byTree = new Map<string, Set<FileId>>();

  override set(file: FileId, entry: Published): this {
    const previous = super.get(file);
    if (previous) this.byTree.get(previous.treeKey)?.delete(file);
    let files = this.byTree.get(entry.treeKey);
    if (!files) this.byTree.set(entry.treeKey, (files = new Set()));
    files.add(file);
    return super.set(file, entry);
  }

  override delete(file: FileId): boolean {
    const previous = super.get(file);
    if (!previous) return false;
    const files = this.byTree.get(previous.treeKey);
    files?.delete(file);
    if (files?.size === 0) this.byTree.delete(previous.treeKey);
    return super.delete(file);
  }

  /** Gives a published file to another tree (its results the same). */
  moveTo(file: FileId, entry: Published, treeKey: string): void {
    this.delete(file);
    entry.treeKey = treeKey;
    this.set(file, entry);
  }

  /** The files published for a tree (a live set: copy it to change the map meanwhile). */
  ofTree(key: string): ReadonlySet<FileId> {
    return this.byTree.get(key) ?? EMPTY_FILES;
  }
}

const EMPTY_FILES: ReadonlySet<FileId> = new Set();
