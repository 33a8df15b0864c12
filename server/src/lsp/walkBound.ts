// What the user is told when the walk of a workspace folder stopped at its bound: the desktop's
// own walk (mthds.workspace.maxFiles) and the browser client's walk of the editor's file system
// (whose bound the worker learns from `mthds/files`) say it in the same words, once per folder.

import type { WalkBound } from '../protocol/browserFiles.js';

export interface BoundedWalk {
  /** The workspace folder (a path on the desktop, a URI in the browser). */
  folder: string;
  limit: number;
  counted: 'files' | WalkBound['counted'];
  /** The setting that moves the bound, when one does. */
  setting?: string;
}

export function boundMessage(walk: BoundedWalk): string {
  const { folder, limit, counted } = walk;
  const read = counted === 'files' ? `only the method files among the first ${limit} are checked` : counted === 'folders' ? `only the method files of the first ${limit} are checked` : `only the first ${limit} are checked`;
  const setting = walk.setting !== undefined ? ` (setting ${walk.setting})` : '';
  return `mthds: the workspace folder ${folder} holds more than ${limit} ${counted}; ${read}, and references to what was not read may show as unresolved${setting}`;
}
