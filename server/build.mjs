// Bundles the command line and the language server into self-contained ESM files, and the language
// server again as a web worker for the browser (browserBuild.mjs).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { browserBuildOptions } from './browserBuild.mjs';

const here = dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: {
    cli: join(here, 'src/cli/main.ts'),
    server: join(here, 'src/lsp/main.ts'),
    // The thread reading the server's stdin (lsp/stdinReader.ts starts it beside server.js).
    stdinWorker: join(here, 'src/lsp/stdinWorker.ts'),
    // The thread it starts to decode large messages (beside it).
    largeBodyWorker: join(here, 'src/lsp/largeBodyWorker.ts'),
    lib: join(here, 'src/lib.ts'),
  },
  outdir: join(here, 'dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Whitespace and syntax only, the names kept: V8 compiles the whole file at every start, and
  // a smaller one starts sooner (the language server's and `mthds`'s module load went from about
  // 0.52-0.7 s to 0.41-0.55 s). The source maps beside them map stack traces back
  // (`node --enable-source-maps`).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // CommonJS dependencies (vscode-languageserver) call require(): give the ESM bundle one.
  banner: { js: "import { createRequire as __mthdsCreateRequire } from 'node:module'; const require = __mthdsCreateRequire(import.meta.url);" },
});

await build({ ...browserBuildOptions(), metafile: false });
