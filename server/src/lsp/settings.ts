// The server's settings: section `mthds` of the client's configuration, with initializationOptions
// as a first value (clients without workspace/configuration, benchmarks, tests).

import { MAX_PACKAGE_FILES } from '../workspace/load.js';

export interface RunnerSettings {
  /** Base URL of a runner; none means the built-in runner, started in-process on demand. */
  url?: string;
  /** A bearer token, or the name of an environment variable holding one. */
  token?: string;
  tokenEnv?: string;
  /** Time allowed to one call; none: the client's defaults (30 s for discovery, 20 min for runs). */
  timeoutMs?: number;
}

export interface Settings {
  diagnostics: {
    /** Delay between a change and its check; the last change is always checked. */
    debounceMs: number;
    /** The dry run of a tree whose static checks found no error, in the background. */
    dryRun: boolean;
    /** How long typing must pause before the dry run starts (ms); 0 turns it off. */
    dryRunDelayMs: number;
    /**
     * How long the server runs the keystroke path on a bundle of its own at start-up, before it
     * answers \`initialize\`, so that the first keystrokes do not wait for V8 to compile it (ms); 0: not.
     */
    warmUpMs: number;
  };
  runner: RunnerSettings;
  packages: {
    /** The package store dependencies are read from; none: $MTHDS_PACKAGES_DIR, else ~/.mthds/packages. */
    dir?: string;
    /** Library folders searched (recursively) for packages that references name by address. */
    libraries: string[];
  };
  structures: {
    /** A structures file: fields of structures the host binds to description-only concepts. */
    file?: string;
  };
  workspace: {
    /**
     * The most files (of any kind) walked below one workspace folder in search of method files:
     * a folder holding more (the home folder, `/`) is walked that far and the user told so.
     */
    maxFiles: number;
  };
}

export const DEFAULT_SETTINGS: Settings = {
  diagnostics: { debounceMs: 50, dryRun: true, dryRunDelayMs: 400, warmUpMs: 1000 },
  runner: {},
  packages: { libraries: [] },
  structures: {},
  workspace: { maxFiles: MAX_PACKAGE_FILES },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Reads settings over `base`, ignoring what has the wrong type. Accepts the `mthds` section itself
 * or an object holding it (`{ mthds: {...} }`), and `debounceMs` at the top (initializationOptions).
 */
export function readSettings(raw: unknown, base: Settings = DEFAULT_SETTINGS): Settings {
  const out: Settings = { diagnostics: { ...base.diagnostics }, runner: { ...base.runner }, packages: { ...base.packages }, structures: { ...base.structures }, workspace: { ...base.workspace } };
  if (!isRecord(raw)) return out;
  const section = isRecord(raw['mthds']) ? raw['mthds'] : raw;
  const top = nonNegative(section['debounceMs']);
  if (top !== undefined) out.diagnostics.debounceMs = top;
  const diagnostics = section['diagnostics'];
  if (isRecord(diagnostics)) {
    const d = nonNegative(diagnostics['debounceMs']);
    if (d !== undefined) out.diagnostics.debounceMs = d;
    if (typeof diagnostics['dryRun'] === 'boolean') out.diagnostics.dryRun = diagnostics['dryRun'];
    const delay = nonNegative(diagnostics['dryRunDelayMs']);
    if (delay !== undefined) out.diagnostics.dryRunDelayMs = delay;
    const warm = nonNegative(diagnostics['warmUpMs']);
    if (warm !== undefined) out.diagnostics.warmUpMs = warm;
  }
  const runner = section['runner'];
  if (isRecord(runner)) {
    const url = nonEmptyString(runner['url']);
    if (url !== undefined) out.runner.url = url;
    else if ('url' in runner) delete out.runner.url;
    const token = nonEmptyString(runner['token']);
    if (token !== undefined) out.runner.token = token;
    const tokenEnv = nonEmptyString(runner['tokenEnv']);
    if (tokenEnv !== undefined) out.runner.tokenEnv = tokenEnv;
    const timeout = nonNegative(runner['timeoutMs']);
    if (timeout !== undefined && timeout > 0) out.runner.timeoutMs = timeout;
  }
  const packages = section['packages'];
  if (isRecord(packages)) {
    const dir = nonEmptyString(packages['dir']);
    if (dir !== undefined) out.packages.dir = dir;
    else if ('dir' in packages) delete out.packages.dir;
    const libraries = packages['libraries'];
    if (Array.isArray(libraries)) out.packages.libraries = libraries.flatMap((l) => nonEmptyString(l) ?? []);
  }
  const structures = section['structures'];
  if (isRecord(structures)) {
    const file = nonEmptyString(structures['file']);
    if (file !== undefined) out.structures.file = file;
    else if ('file' in structures) delete out.structures.file;
  }
  const workspace = section['workspace'];
  if (isRecord(workspace)) {
    const maxFiles = nonNegative(workspace['maxFiles']);
    if (maxFiles !== undefined && maxFiles >= 1) out.workspace.maxFiles = Math.floor(maxFiles);
  }
  return out;
}
