// The esbuild options of the language server's web worker (server/dist/browser.js): one classic
// worker script for the browser. `node:path` is served by pathe (posix paths, the same API), and
// vscode-languageserver by its browser entry; any other Node built-in fails the build.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

const browserModules = {
  name: 'mthds-browser-modules',
  setup(build) {
    build.onResolve({ filter: /^node:path$/ }, () => ({ path: require.resolve('pathe').replace(/index\.cjs$/, 'index.mjs') }));
    build.onResolve({ filter: /^vscode-languageserver$/ }, () => ({ path: require.resolve('vscode-languageserver/browser.js') }));
  },
};

/** @returns {import('esbuild').BuildOptions} */
export function browserBuildOptions() {
  return {
    entryPoints: { browser: join(here, 'src/lsp/browserMain.ts') },
    outdir: join(here, 'dist'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [browserModules],
  };
}
