// The TypeScript sources a benchmark measures, bundled with esbuild into a temporary module and
// imported (the benchmarks run on the sources, not on the built bundles).

import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Imports `contents` (a module of exports, paths relative to the repository). */
export async function importSources(contents) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-'));
  const outfile = path.join(dir, 'sources.mjs');
  try {
    await build({
      stdin: { contents, resolveDir: path.join(here, '..'), loader: 'ts' },
      nodePaths: [path.join(here, '../node_modules'), path.join(here, '../server/node_modules')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
