// Running a process of the project as a user without privileges, so that file modes bite: root
// reads a folder of mode 000 all the same. Not root: the process runs as it is. Root: it runs
// as `nobody` through util-linux's setpriv (on every Debian system; a missing setpriv fails).

import { chmodSync, existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';

/** The words to put before a command line so that it runs without privileges. */
export function unprivileged(): string[] {
  if (process.getuid?.() !== 0) return [];
  if (!existsSync(SETPRIV)) throw new Error(`running as root, and ${SETPRIV} (util-linux) is missing: install util-linux`);
  return [SETPRIV, '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
}

/** Lets that user enter and read a folder made by the tests (mkdtemp makes them private). */
export function shareFolder(dir: string): void {
  chmodSync(dir, 0o755);
}
