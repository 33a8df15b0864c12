// Bundles the VS Code client: the extensions for the desktop and for the browser (CommonJS: VS
// Code loads extensions with require(), `vscode` provided by the host) and the graph webview's script (a browser IIFE, no network).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
mkdirSync(dist, { recursive: true });

await Promise.all([
  build({
    entryPoints: { extension: join(here, 'src/extension.ts') },
    outdir: dist,
    bundle: true,
    platform: 'node',
    // VS Code 1.91's extension host runs Node 20.
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    // Smaller vsix and faster load; the source map keeps stack traces readable.
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  }),
  // The extension in a browser (package.json "browser": vscode.dev, github.dev): CommonJS for the
  // web extension host, no Node built-in; its language server is server/dist/browser.js.
  build({
    entryPoints: { browser: join(here, 'src/browser/extension.ts') },
    outdir: dist,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'cjs',
    external: ['vscode'],
    minify: true,
    sourcemap: true,
    logLevel: 'warning',
  }),
  build({
    entryPoints: { graph: join(here, 'src/graph/webview.ts') },
    outdir: dist,
    bundle: true,
    platform: 'browser',
    target: 'es2020',
    format: 'iife',
    sourcemap: true,
    logLevel: 'warning',
  }),
]);

// client/package.json says "type": "module" (the sources are ESM for tsc); the bundle is CommonJS,
// so its folder says so, or Node would refuse to require() it.
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
