// Finding the workspace's trees again when its folders change, without holding the server: the
// walk runs in slices between which queued messages go first, and a walk whose folder set has been
// replaced meanwhile (a client adding and removing folders in a burst) stops at its next pause and
// leaves nothing behind, so only the latest set is walked to its end. A folder holding more files
// than the bound of a walk (the home folder, `/`) is walked that far and the user is told once.

import type { Session } from '../workspace/session.js';
import type { TreeId } from '../workspace/treeLocator.js';
import { runSlice } from '../util/steps.js';

/** How long one slice of a walk runs before queued messages go (ms). */
const SCAN_SLICE_MS = 8;

export interface FolderScansOptions {
  /** Yields between two slices (queued requests and notifications go first). */
  pause: () => Promise<void>;
  /** The bound of one folder's walk (files of any kind), read when a walk starts. */
  maxFiles: () => number;
  /** A folder was walked only up to the bound (told once per folder and bound). */
  truncated: (folder: string, maxFiles: number) => void;
}

export class FolderScans {
  /** Counts the walks asked for: a walk goes on only while it is the latest. */
  private generation = 0;
  private readonly told = new Set<string>();
  /** Walks stopped because a newer one was asked for (a test reads it). */
  superseded = 0;

  constructor(
    private readonly session: Session,
    private readonly options: FolderScansOptions,
  ) {}

  /**
   * Walks the workspace folders again (the session's current set): the trees found, once the walk
   * ended; undefined when a newer walk replaced this one before it ended.
   */
  rescan(): Promise<TreeId[] | undefined> {
    this.latest = this.walk();
    return this.latest;
  }

  /** The trees of the latest walk once it ended (waiting for the walks that replace it, if any). */
  async settled(): Promise<TreeId[]> {
    for (;;) {
      const latest = this.latest ?? this.rescan();
      const trees = await latest;
      if (trees !== undefined && latest === this.latest) return trees;
    }
  }

  private latest: Promise<TreeId[] | undefined> | undefined;

  private async walk(): Promise<TreeId[] | undefined> {
    const mine = ++this.generation;
    // The messages already queued go first: a burst of folder changes replaces this walk before
    // it reads a folder.
    await this.options.pause();
    const maxFiles = this.options.maxFiles();
    const steps = this.session.scanWorkspaceSteps(maxFiles);
    for (;;) {
      // A walk asked for later has the current folder set: this one stops where it is.
      if (mine !== this.generation) {
        this.superseded += 1;
        return undefined;
      }
      const ended = runSlice(steps, performance.now() + SCAN_SLICE_MS);
      if (ended) {
        for (const folder of ended.value.truncated) this.tell(folder, maxFiles);
        return ended.value.trees;
      }
      await this.options.pause();
    }
  }

  private tell(folder: string, maxFiles: number): void {
    const key = `${maxFiles}\n${folder}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.options.truncated(folder, maxFiles);
  }
}
