// The diagnostics of the language server, by job: the check scheduler (checks.ts: when trees are
// checked), the publisher (publisher.ts: what the client gets, pushed or pulled), the dry-run
// scheduler (dryRuns.ts: the background dry run once typing pauses) and the idle preparation
// (idlePreparation.ts: what the next keystroke needs, made while nothing else runs). This class
// makes the four and links them; the server and the runner commands talk to it only.

import type {
  CancellationToken,
  Diagnostic,
  DocumentDiagnosticParams,
  DocumentDiagnosticReport,
  WorkspaceDiagnosticParams,
  WorkspaceDiagnosticReport,
} from 'vscode-languageserver';
import type { FileId, Session, TreeCheck } from '../../workspace/session.js';
import type { TreeId } from '../../workspace/treeLocator.js';
import type { TextLocator } from '../convert.js';
import { oneTurn } from '../messageTurns.js';
import { CheckScheduler } from './checks.js';
import { guardWith, type DiagnosticsConnection, type DiagnosticsOptions } from './context.js';
import { DryRunScheduler } from './dryRuns.js';
import { IdlePreparation } from './idlePreparation.js';
import { Publisher } from './publisher.js';

export type { DiagnosticsConnection, DiagnosticsOptions } from './context.js';

export class Diagnostics {
  private readonly checks: CheckScheduler;
  private readonly publisher: Publisher;
  private readonly dryRuns: DryRunScheduler;
  private readonly idle: IdlePreparation;

  constructor(connection: DiagnosticsConnection, session: Session, locator: TextLocator, options: DiagnosticsOptions) {
    const guard = guardWith(options.log);
    /** Yields between two slices (requests and notifications queued meanwhile go first). */
    const pause = (): Promise<void> => (options.pause ?? oneTurn)();
    this.dryRuns = new DryRunScheduler(session, options, (key, findings) => this.publisher.publishDry(key, findings), guard);
    this.publisher = new Publisher(connection, session, locator, options, {
      cancelDryRun: (key) => this.dryRuns.cancel(key),
      checkPublished: (result) => this.dryRuns.schedule(result),
      ensureCurrent: (file) => this.checks.ensureCurrent(file),
      flushDirty: () => this.checks.flushDirty(),
      workspaceReady: () => this.checks.workspaceReady,
    });
    this.idle = new IdlePreparation(session, options, pause, () => this.checks.busy(), guard);
    this.checks = new CheckScheduler(session, options, pause, this.publisher, this.idle, guard);
  }

  /** How long ago a document was last opened or changed (ms; Infinity: never). */
  msSinceDocumentChange(): number {
    return this.checks.msSinceDocumentChange();
  }

  /** A document was opened or changed: check its tree after the debounce delay. */
  documentChanged(file: FileId, id: TreeId): void {
    this.publisher.documentChanged(file, id.key);
    this.checks.documentChanged(id);
  }

  /** Shows a runner's validation errors (replacing the previous ones of the tree). */
  setRunnerDiagnostics(treeKey: string, perFile: ReadonlyMap<FileId, Diagnostic[]>): void {
    this.publisher.setRunnerDiagnostics(treeKey, perFile);
  }

  /** Schedules a check of a tree; a later call restarts the delay, so the last change wins. */
  schedule(id: TreeId): void {
    this.checks.schedule(id);
  }

  /** Makes ahead what the documents of these trees share: the end of the workspace's first check. */
  prepareTrees(ids: readonly TreeId[]): Promise<void> {
    return this.idle.prepareTrees(ids);
  }

  /** Checks a tree now, cancelling a pending delayed check, and publishes what changed. */
  checkNow(id: TreeId): TreeCheck {
    return this.checks.checkNow(id);
  }

  /** Makes the tree of `file` current, for what must not work on an older text (checks.ts). */
  ensureCurrent(file: FileId): TreeCheck {
    return this.checks.ensureCurrent(file);
  }

  /** Resolves once a request on `file` can answer from a check of its tree (checks.ts). */
  firstCheck(file: FileId): Promise<void> {
    return this.checks.firstCheck(file);
  }

  /** Files changed on disk (their trees are marked): one background update follows. `changed`: the files whose texts changed, read ahead of it. */
  requestUpdate(changed: readonly FileId[] = []): void {
    this.checks.requestUpdate();
    this.checks.preload(changed);
  }

  /** Checks every tree due for a check (trees of open documents first), in slices. */
  flushDirty(onProgress?: (done: number, total: number) => void, onResults?: () => void): Promise<void> {
    return this.checks.flushDirty(onProgress, false, onResults);
  }

  /** The background check of the workspace: pulls of the whole workspace wait for it. */
  setWorkspaceReady(ready: Promise<void>): void {
    this.checks.setWorkspaceReady(ready);
  }

  /** Forgets (and clears in the client) the results of a file. */
  clear(file: FileId): void {
    this.publisher.clear(file);
  }

  /** Clears every file of a tree that is gone (a closed untitled document, a tree outside the workspace). */
  dropTree(key: string): void {
    this.publisher.dropTree(key);
  }

  /** A pull of one document (publisher.ts). */
  documentReport(params: DocumentDiagnosticParams, file: FileId | undefined): Promise<DocumentDiagnosticReport> {
    return this.publisher.documentReport(params, file);
  }

  /** A pull of the workspace (publisher.ts). */
  workspaceReport(params: WorkspaceDiagnosticParams, token: CancellationToken): Promise<WorkspaceDiagnosticReport> {
    return this.publisher.workspaceReport(params, token);
  }

  /** The diagnostics last computed for a file (tests and code actions). */
  diagnosticsOf(file: FileId): Diagnostic[] | undefined {
    return this.publisher.diagnosticsOf(file);
  }
}
