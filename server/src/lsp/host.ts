// What the language server needs from where it runs, beside its connection: the desktop's process
// (lsp/nodeHost.ts) and the browser's worker (lsp/browserMain.ts) each fill it. The rest of the
// server reaches the disk, the built-in runner, the dry run and the file system's URIs only through
// it, so that no Node built-in reaches the worker's bundle.

import type { Finding } from '../check/finding.js';
import type { MethodTree } from '../language/tree.js';
import type { ModelCatalog } from '../language/modelCatalog.js';
import type { FileSystem } from '../workspace/fileSystem.js';

/** URIs <-> the session's file identities (absolute paths for files of the file system). */
export interface UriMapping {
  toFile(uri: string): string;
  toUri(file: string): string;
}

/** The dry run after a tree's static checks (the runner's executor with its mock models). */
export interface DryRunner {
  due(tree: MethodTree, staticFindings: readonly Finding[]): boolean;
  run(tree: MethodTree, staticFindings: readonly Finding[], options: { signal?: AbortSignal }): Promise<Finding[]>;
}

/** A runner started inside the server's process, on loopback. */
export interface BuiltInRunner {
  url: string;
  close(graceMs: number): Promise<void>;
}

export interface ServerHost {
  /** Where method files are read from: the disk, or the files the browser's client sent. */
  fs: FileSystem;
  uris: UriMapping;
  /** The environment (`mthds.runner.tokenEnv` names a variable of it). */
  env: Readonly<Record<string, string | undefined>>;
  /** Absent where no dry run can run (the browser): the static checks alone are published. */
  dryRun?: DryRunner;
  /**
   * The origin requests to a runner come from, in a browser (the worker's): a runner it cannot
   * reach may be one that does not allow this origin, and the message says how to allow it.
   */
  origin?: string;
  /** Absent where no runner can be started (the browser): a configured runner URL is needed. */
  startRunner?: (log: (line: string) => void) => Promise<BuiltInRunner>;
  /** Saves a run's output where the editor can open it; its URI, or undefined where nothing is saved. */
  saveRunOutput?: (pipeCode: string, runId: string, output: unknown) => string;
  /** The models completion and hover offer without a configured runner (the built-in runner's deck). */
  builtInModels?: () => ModelCatalog;
  /** Whether the server registers file watchers with the client (the browser's client sends its files itself). */
  watchFiles: boolean;
  /**
   * The warm-up's budget (ms) when the client sets none (`diagnostics.warmUpMs`); the desktop's
   * default when absent. The browser's worker sets 0: its warm-up would delay the first
   * diagnostics by its whole budget for keystrokes that gain little from it (bench/README.md).
   */
  defaultWarmUpMs?: number;
}
