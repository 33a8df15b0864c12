// The external material the corpus tests run over (`npm run test:corpus`): the shared corpus of
// real bundles, toml-test and the reference documents, in `../shared` beside the repository (or
// `$MTHDS_SHARED`). Its absence fails these tests loudly: they are never skipped.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers/files.js';

export const SHARED = process.env['MTHDS_SHARED'] ? path.resolve(process.env['MTHDS_SHARED']) : path.resolve(REPO, '../shared');

/** A path inside the shared folder; throws, naming where it looked, when it is not there. */
export function sharedPath(rel: string): string {
  const full = path.join(SHARED, rel);
  if (!existsSync(full)) {
    throw new Error(`${full} is missing: \`npm run test:corpus\` needs the shared corpus, toml-test and reference documents in ${SHARED} (set MTHDS_SHARED to another folder); \`npm test\` does not`);
  }
  return full;
}
