// What the parts of the diagnostics share: the options the server gives them, the connection they
// publish through, how long a slice of their work runs, and how a failure of their work is told.

import type { Connection } from 'vscode-languageserver';
import type { Finding } from '../../check/finding.js';
import type { FileId } from '../../workspace/session.js';
import type { MarkupFormat } from '../markup.js';
import type { DryRunner } from '../host.js';

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
  /** Sets the heap for an update of files changed on disk; returns what ends it (the server's own process only). */
  heapForBurst?: () => () => void;
  /**
   * The findings of a file for its current text from the latest finished check (carried over
   * when its check is pending: `Views.findingsOf`); a pull answers from them without checking.
   */
  findingsOf?: (file: FileId) => { findings: readonly Finding[]; ahead: boolean } | undefined;
  /** The format of the client's completion documentation (what the preparation at idle renders). */
  documentationFormat?: () => MarkupFormat;
}

/** How long a slice of a check (and of its publishing) runs before it yields to the message loop (ms). */
export const SLICE_MS = 8;

/** Runs work started by a timer or a promise: a failure is logged, never thrown at the event loop. */
export function guardWith(log: (message: string) => void): (fn: () => void) => void {
  return (fn) => {
    try {
      fn();
    } catch (error) {
      log(`mthds: check failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
}
