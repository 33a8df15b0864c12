// The publisher of the diagnostics, push and pull: the diagnostics of every file made from its
// tree's last check (with the runner's and the dry run's findings of the file), pushed per file when
// they changed (publishDiagnostics), or kept for the client to pull (textDocument/diagnostic,
// workspace/diagnostic, with result ids so that unchanged results answer `unchanged`). It starts
// no check: a pull that must wait for one asks the check scheduler (the links it is given).

import type {
  CancellationToken,
  Diagnostic,
  DocumentDiagnosticParams,
  DocumentDiagnosticReport,
  PublishDiagnosticsParams,
  WorkspaceDiagnosticParams,
  WorkspaceDiagnosticReport,
  WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { dequal } from 'dequal';
import type { Finding } from '../../check/finding.js';
import { runSteps } from '../../util/steps.js';
import type { FileId, Session, TreeCheck } from '../../workspace/session.js';
import { findingToDiagnostic, type TextLocator } from '../convert.js';
import { checkedText } from '../views.js';
import type { DiagnosticsConnection, DiagnosticsOptions } from './context.js';

interface Published {
  treeKey: string;
  uri: string;
  /** The findings the own diagnostics were made of (the same list means the same diagnostics). */
  source?: readonly Finding[];
  /** The diagnostics of the checks (source mthds). */
  own: Diagnostic[];
  /** What the client gets: the own ones and the runner's (source runner). */
  diagnostics: Diagnostic[];
  resultId: string;
}

/** What the publisher asks of the other parts of the diagnostics. */
export interface PublisherLinks {
  /** Cancels the pending or running dry run of a tree (its findings are about older versions). */
  cancelDryRun(key: string): void;
  /** A tree's check is published: its dry run may follow. */
  checkPublished(result: TreeCheck): void;
  /** Makes the tree of a file current (a pull of a document never checked). */
  ensureCurrent(file: FileId): TreeCheck;
  /** Checks every tree due (a workspace pull answers after). */
  flushDirty(): Promise<void>;
  /** The background check of the workspace, which workspace pulls wait for. */
  workspaceReady(): Promise<void>;
}

/** How many files' diagnostics publishing converts and sends between two pauses. */
const PUBLISHED_PER_STEP = 8;
/** How many findings of one file publishing converts between two pauses. */
const CONVERTED_PER_STEP = 1000;
/** How many published files the search for files of no tree goes through between two pauses. */
const STALE_PER_STEP = 512;
/** How long a workspace pull with nothing new waits for a change before answering anyway. */
const WORKSPACE_PULL_HOLD_MS = 60_000;
/** Every file of a tree is due for publishing. */
const ALL = 'all';
/** The longest a pull from a client that cannot be asked again waits for a document's check (ms). */
const CHECK_WAIT_MS = 30_000;
/** The result id of the empty report that clears a file that is gone. */
const CLEARED = 'cleared';

export class Publisher {
  private readonly published = new PublishedFiles();
  /** Open documents changed since their tree was last checked: they are published even unchanged. */
  private readonly touched = new Set<FileId>();
  private resultCounter = 0;
  private waiters: Array<() => void> = [];
  /** Diagnostics of the runner's last validation, per file, with the tree they belong to. */
  private readonly runner = new Map<FileId, { treeKey: string; diagnostics: Diagnostic[] }>();
  /** Findings of each tree's last dry run, per file (the check they complete made them due). */
  private readonly dry = new Map<FileId, { treeKey: string; diagnostics: Diagnostic[] }>();
  /** Files a pull was answered for ahead of their check: pull clients are asked again once checked. */
  private readonly answeredAhead = new Set<FileId>();
  /** Pulls waiting for the next finished check of a tree (clients that cannot be asked again). */
  private readonly checkWaiters = new Map<string, Array<() => void>>();
  /** Per tree, the files whose diagnostics are still to be made again (ALL: every file of the tree). */
  private readonly pending = new Map<string, Set<FileId> | typeof ALL>();
  /** Diagnostics notifications handed to the connection and not yet written. */
  private unwrittenCount = 0;

  constructor(
    private readonly connection: DiagnosticsConnection,
    private readonly session: Session,
    private readonly locator: TextLocator,
    private readonly options: DiagnosticsOptions,
    private readonly links: PublisherLinks,
  ) {}

  /** Diagnostics notifications handed to the connection and not yet written. */
  get unwritten(): number {
    return this.unwrittenCount;
  }

  /**
   * A document was opened or changed: it is published at its tree's next check even unchanged, and
   * what the runner and the dry run said of its tree, about the text before, is dropped.
   */
  documentChanged(file: FileId, key: string): void {
    this.touched.add(file);
    this.dropDryRun(key);
    // The runner's verdict was about the text before this change: its positions no longer hold.
    for (const [f, r] of this.runner) {
      if (r.treeKey !== key) continue;
      this.runner.delete(f);
      // Published with the runner's: to be made again.
      this.remake(f);
    }
  }

  /** Whether an open document of a tree changed since the tree was last checked. */
  touchedIn(key: string): boolean {
    for (const file of this.touched) if (this.session.treeOf(file).key === key) return true;
    return false;
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

  publish(result: TreeCheck): void {
    runSteps(this.publishSteps(result));
  }

  /**
   * Publishes what changed in a check, the open documents first; pauses (yields) after every
   * `PUBLISHED_PER_STEP` files converted, so that a caller can spread a large update over turns.
   */
  *publishSteps(result: TreeCheck): Generator<void, void> {
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
    const one = (file: FileId, findings: readonly Finding[]): Generator<void, boolean> =>
      this.publishFileSteps(result, open, file, findings, () => (othersChanged = true));
    for (const file of open) {
      yield* one(file, result.findings.get(file)!);
      if (due !== ALL) due.delete(file);
    }
    if (due === ALL) {
      for (const [file, findings] of result.findings) {
        if (open.has(file)) continue;
        if ((yield* one(file, findings)) && ++converted % PUBLISHED_PER_STEP === 0) yield;
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
          if ((yield* one(file, findings)) && ++converted % PUBLISHED_PER_STEP === 0) yield;
        } else if (this.published.get(file)?.treeKey === key) {
          this.clear(file);
          othersChanged = true;
          if (++converted % PUBLISHED_PER_STEP === 0) yield;
        }
      }
    }
    if (othersChanged) this.changed();
    this.links.checkPublished(result);
    this.wakeCheckWaiters(key);
  }

  /**
   * Publishes one file of a check: its findings made diagnostics (in steps of
   * CONVERTED_PER_STEP: a file may have tens of thousands) and sent when they changed. Returns
   * whether they were made. An open document edited after the check read it is left (its findings'
   * ranges are of an older text): it stays touched, and the check its edit made due publishes it.
   */
  private *publishFileSteps(result: TreeCheck, open: ReadonlySet<FileId>, file: FileId, findings: readonly Finding[], othersChanged: () => void): Generator<void, boolean> {
    const key = result.id.key;
    const tree = result.tree;
    const edited = (): boolean => {
      const seen = tree && open.has(file) ? checkedText(tree, file) : undefined;
      return seen !== undefined && seen !== this.session.textOf(file);
    };
    if (edited()) return false;
    // The same findings: nothing to convert or compare.
    const same = (): boolean => {
      const p = this.published.get(file);
      return p?.source === findings && p.treeKey === key;
    };
    let own: Diagnostic[] | undefined;
    if (!same()) {
      own = [];
      for (const finding of findings) {
        own.push(findingToDiagnostic(finding, this.locator));
        if (own.length % CONVERTED_PER_STEP === 0 && own.length < findings.length) {
          yield;
          if (edited()) return false;
        }
      }
    }
    // A pull answered ahead of this check: the client is asked to pull again.
    if (this.answeredAhead.delete(file)) othersChanged();
    const wasTouched = this.touched.delete(file);
    const previous = this.published.get(file);
    if (!own || same()) {
      // The edited document still hears back.
      if (previous && wasTouched && !this.options.pull) this.send(previous.uri, file, previous.diagnostics);
      return false;
    }
    // A file's URI is made once; an edited document's may be the client's own spelling, just opened.
    const uri = previous && !wasTouched ? previous.uri : this.locator.uriOf(file);
    if (this.update(file, uri, key, own, wasTouched, findings) && !wasTouched) othersChanged();
    return true;
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

  /** Publishes a tree's dry-run findings with its check's. */
  publishDry(key: string, findings: readonly Finding[]): void {
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
    this.links.cancelDryRun(key);
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
    const previous = this.published.get(file);
    // Compared as values, without writing both out (megabytes for a file of many findings).
    if (previous && previous.uri === uri && dequal(previous.diagnostics, diagnostics)) {
      if (previous.treeKey !== treeKey) this.published.moveTo(file, previous, treeKey);
      previous.own = own;
      if (source) previous.source = source;
      else delete previous.source;
      if (force && !this.options.pull) this.send(uri, file, diagnostics);
      return false;
    }
    if (previous && previous.uri !== uri && !this.options.pull) this.notify({ uri: previous.uri, diagnostics: [] });
    const entry: Published = { treeKey, uri, own, diagnostics, resultId: this.nextResultId() };
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
    this.unwrittenCount += 1;
    const written = (): void => {
      this.unwrittenCount -= 1;
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

  /** Clears files whose tree no longer exists or no longer holds them. */
  *dropStaleSteps(): Generator<void, void> {
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
  changed(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
    if (this.options.pull && this.options.refreshSupport) this.connection.languages.diagnostics.refresh();
  }

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
    if (!found) this.links.ensureCurrent(file);
    const p = this.published.get(file);
    if (!p) return { kind: 'full', items: [] };
    if (params.previousResultId === p.resultId) return { kind: 'unchanged', resultId: p.resultId };
    return { kind: 'full', resultId: p.resultId, items: p.diagnostics };
  }

  async workspaceReport(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    await this.links.workspaceReady();
    await this.links.flushDirty();
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
      await this.links.flushDirty();
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
