// The language server's web worker carries no Node built-in: its bundle is built here as
// `npm run build` builds it (server/browserBuild.mjs), and esbuild's metafile lists every module
// that went in. `node:path` is served by pathe; anything else Node-only would have to be behind the
// server's host (lsp/host.ts).

import { builtinModules } from 'node:module';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, not typed.
import { browserBuildOptions } from '../../server/browserBuild.mjs';

const BUILTINS = new Set(builtinModules.flatMap((m: string) => [m, `node:${m}`]));

describe('the browser worker bundle', () => {
  it('has no Node built-in among its inputs or its imports, and is one classic script', async () => {
    const result = await build({ ...(browserBuildOptions() as object), write: false, metafile: true, sourcemap: false, logLevel: 'silent' });
    const meta = result.metafile as Metafile;
    const inputs = Object.keys(meta.inputs);
    expect(inputs.some((i) => i.endsWith('server/src/lsp/browserMain.ts'))).toBe(true);
    expect(inputs.some((i) => i.includes('pathe'))).toBe(true);
    const imports = Object.values(meta.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(inputs.filter((i) => BUILTINS.has(i) || i.startsWith('node:'))).toEqual([]);
    expect(imports.filter((p) => BUILTINS.has(p) || p.startsWith('node:'))).toEqual([]);
    // Nothing of the desktop's hosts: the disk, the runner's HTTP server, the providers' network.
    expect(inputs.filter((i) => /workspace\/(nodeFileSystem|readText|writeGuarded)\.ts$|runner\/(index|server|network)\.ts$|lsp\/nodeHost\.ts$/.test(i))).toEqual([]);
    const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.js'));
    expect(outputs).toHaveLength(1);
    // A classic worker script: no import or export statement at its top level.
    expect(outputs[0]![1].imports).toEqual([]);
    expect(outputs[0]![1].exports).toEqual([]);
  }, 120_000);
});
