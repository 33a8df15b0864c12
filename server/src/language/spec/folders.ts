// The folders of a workspace that hold none of the user's own methods: one list, read by the
// desktop's walks (workspace/discover.ts) and by the browser client's walk of the editor's file
// system (client/src/browser/workspaceFiles.ts), which is a separate bundle: nothing here may
// import Node's modules.

/** The folder where the MTHDS tools keep what they install (`.mthds/methods/<name>/`). */
export const TOOLS_FOLDER = '.mthds';
/** Inside TOOLS_FOLDER: the installed methods, read as dependencies by name. */
export const INSTALLED_METHODS_FOLDER = 'methods';

/**
 * Folders never searched for the user's method files. TOOLS_FOLDER holds installed methods and
 * packages: they are dependencies, found by workspace/dependencies.ts, never part of a tree.
 */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', '__pycache__', '.venv', 'venv', TOOLS_FOLDER]);

/**
 * Whether the folder `name`, inside a folder named `parent`, holds files a dependency lookup may
 * read: every folder but the skipped ones, and of TOOLS_FOLDER only its installed methods (the
 * browser's worker reads nothing but what its client sends, so its client sends these too).
 */
export function holdsReadableMethods(parent: string | undefined, name: string): boolean {
  if (parent === TOOLS_FOLDER) return name === INSTALLED_METHODS_FOLDER;
  return name === TOOLS_FOLDER || !SKIPPED_FOLDERS.has(name);
}
