// The VS Code extension package: the same vsce call as `npm run package` (after the build, which
// `npm test` runs first), then the .vsix read as the zip it is. It must hold the bundled client and
// server, the grammars, the manifest's contributions, and its own page (client/README.md) with its
// images and its icon, nothing else; every command the server
// registers must have a contribution; and what it holds must run on its own: the client bundle
// loads with require() (as VS Code loads extensions), the server starts from the unpacked package
// (no node_modules anywhere near it) over Node IPC, as the client starts it, and checks a bundle.

import { execFile, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { IPCMessageReader, IPCMessageWriter, createMessageConnection } from 'vscode-jsonrpc/node.js';
import type { DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_COMMANDS } from '../../client/src/commands.js';
import { DEFAULT_SETTINGS } from '../../server/src/lsp/settings.js';
import { packageVsix } from '../helpers/vsix.js';
import { LspClient, PULL_CAPABILITIES, REPO, tempWorkspace, uriOf } from './lsp/harness.js';

const run = promisify(execFile);

interface Manifest {
  name: string;
  publisher: string;
  icon?: string;
  main: string;
  browser: string;
  type?: string;
  engines: { vscode: string };
  activationEvents: string[];
  scripts: Record<string, string>;
  contributes: {
    languages: { id: string; extensions?: string[]; filenames?: string[]; configuration?: string }[];
    grammars: { language?: string; scopeName: string; path: string; injectTo?: string[]; embeddedLanguages?: Record<string, string> }[];
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { type: string | string[]; default?: unknown }> };
    menus?: Record<string, { command: string }[]>;
  };
}

/** Every entry of a zip, name -> bytes (the package is a few MB). */
function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The ids of RUNNER_COMMANDS as written in the server's source. */
/** The commands the server's executeCommandProvider lists: the runner's, and the fix-all's. */
function serverCommandsInSource(): string[] {
  const source = readFileSync(path.join(REPO, 'server/src/lsp/runner/commands.ts'), 'utf8');
  const list = /export const RUNNER_COMMANDS\s*=\s*\[([^\]]*)\]/.exec(source);
  if (!list) throw new Error('RUNNER_COMMANDS not found in server/src/lsp/runner/commands.ts');
  const fixAll = /export const FIX_ALL_COMMAND = '([^']+)'/.exec(readFileSync(path.join(REPO, 'server/src/lsp/codeActions.ts'), 'utf8'));
  if (!fixAll) throw new Error('FIX_ALL_COMMAND not found in server/src/lsp/codeActions.ts');
  return [...[...list[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!), fixAll[1]!];
}

let files: Map<string, Buffer>;
let manifest: Manifest;
let unpacked: string;
let vsceOutput: string;

beforeAll(async () => {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'mthds-vsix-')), 'mthds.vsix');
  vsceOutput = await packageVsix(out);
  files = await readZip(out);
  manifest = JSON.parse(files.get('extension/package.json')!.toString('utf8')) as Manifest;
  unpacked = mkdtempSync(path.join(tmpdir(), 'mthds-vsix-unpacked-'));
  for (const [name, bytes] of files) {
    const target = path.join(unpacked, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
}, 180_000);

describe('the .vsix', () => {
  it('holds the bundled client, the bundled server, the grammars and the documents', () => {
    const names = [...files.keys()];
    for (const required of [
      'extension.vsixmanifest',
      'extension/package.json',
      'extension/readme.md',
      'extension/LICENSE.txt',
      'extension/client/dist/extension.js',
      'extension/client/dist/browser.js',
      'extension/client/dist/graph.js',
      'extension/client/dist/package.json',
      'extension/client/language-configuration.json',
      'extension/client/syntaxes/mthds-manifest.tmLanguage.json',
      'extension/server/package.json',
      'extension/server/dist/server.js',
      'extension/server/dist/stdinWorker.js',
      'extension/server/dist/browser.js',
      'extension/server/bin/mthds-language-server.js',
      'extension/syntaxes/mthds.tmLanguage.json',
      'extension/syntaxes/mthds-markdown-injection.tmLanguage.json',
    ]) {
      expect(names, required).toContain(required);
    }
    expect(vsceOutput).toMatch(/Packaged:/);
  });

  it("shows the extension's own short page, every image it links, and the icon", () => {
    const page = files.get('extension/readme.md')!.toString('utf8');
    // The extension page is client/README.md (vsce's --readme-path), not the repository's README.
    expect(page).toBe(readFileSync(path.join(REPO, 'client/README.md'), 'utf8'));
    expect(page).not.toBe(readFileSync(path.join(REPO, 'README.md'), 'utf8'));
    expect(page.length).toBeLessThan(8 * 1024);
    const images = [...page.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image, 'a packaged image, linked from the package root').not.toMatch(/^(https?:|\/|\.\.)/);
      expect([...files.keys()], image).toContain(`extension/${path.posix.normalize(image)}`);
    }
    expect(manifest.icon).toBe('client/images/icon.png');
    const icon = files.get(`extension/${manifest.icon!}`);
    expect(icon, 'the icon is packaged').toBeDefined();
    // A PNG (the Marketplace refuses SVG icons) of at least 128 x 128 pixels.
    expect(icon!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(icon!.readUInt32BE(16)).toBeGreaterThanOrEqual(128);
    expect(icon!.readUInt32BE(20)).toBeGreaterThanOrEqual(128);
    expect(files.get('extension.vsixmanifest')!.toString('utf8')).toContain('<Icon>extension/client/images/icon.png</Icon>');
  });

  it('holds no dependencies, sources, tests, corpus, examples or source maps', () => {
    const names = [...files.keys()];
    const unwanted = names.filter((n) => /(^|\/)node_modules\/|\.ts$|\.map$|^extension\/(test|bench|examples|docs|\.ci|\.git)\/|\/src\/|corpus/.test(n));
    expect(unwanted).toEqual([]);
    // A few MB, not the hundreds node_modules would weigh.
    const size = [...files.values()].reduce((n, b) => n + b.length, 0);
    expect(size).toBeLessThan(20 * 1024 * 1024);
  });

  it('holds every file its manifest points to', () => {
    const pointed = [manifest.main, manifest.browser, ...manifest.contributes.grammars.map((g) => g.path), ...manifest.contributes.languages.flatMap((l) => (l.configuration ? [l.configuration] : []))];
    for (const p of pointed) expect([...files.keys()], p).toContain(`extension/${path.posix.normalize(p)}`);
    // The client bundles are CommonJS, in a folder that says so. The manifest says no "type": VS
    // Code would take its entries for ES modules under "type": "module", and its web worker
    // extension host loads none (the browser entry would not start there).
    expect(manifest.type).toBeUndefined();
    expect(JSON.parse(files.get('extension/client/dist/package.json')!.toString('utf8'))).toEqual({ type: 'commonjs' });
    expect(files.get('extension/client/dist/extension.js')!.toString('utf8')).toMatch(/require\("vscode"\)/);
    // Both entries: the desktop's (`main`) and the browser's (`browser`, vscode.dev and github.dev),
    // which starts the language server's worker script, packaged beside the desktop server.
    expect(manifest.browser).toBe('./client/dist/browser.js');
    const browserClient = files.get('extension/client/dist/browser.js')!.toString('utf8');
    expect(browserClient).toMatch(/require\("vscode"\)/);
    expect(browserClient).toMatch(/"server",\s*"dist",\s*"browser\.js"/);
    expect(browserClient).not.toMatch(/require\("(node:)?(fs|child_process|net|os|path)"\)/);
    expect(files.get('extension/server/dist/browser.js')!.toString('utf8')).toContain('mthds/files');
  });

  it('contributes the languages, the grammars and the Markdown injection', () => {
    const c = manifest.contributes;
    expect(manifest.publisher).toBeTruthy();
    expect(manifest.engines.vscode).toMatch(/^\^1\.\d+/);
    expect(manifest.activationEvents).toEqual(expect.arrayContaining(['onLanguage:mthds', 'workspaceContains:**/*.mthds', 'workspaceContains:**/METHODS.toml']));
    const mthds = c.languages.find((l) => l.id === 'mthds')!;
    expect(mthds.extensions).toEqual(['.mthds']);
    const manifestLanguage = c.languages.find((l) => l.filenames?.includes('METHODS.toml'))!;
    expect(manifestLanguage.filenames).toContain('methods.lock');
    expect(c.grammars).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ language: 'mthds', scopeName: 'source.mthds' }),
        expect.objectContaining({ injectTo: ['text.html.markdown'], embeddedLanguages: { 'meta.embedded.block.mthds': 'mthds' } }),
      ]),
    );
    // The scope names match the grammar files.
    for (const g of c.grammars) {
      const grammar = JSON.parse(files.get(`extension/${path.posix.normalize(g.path)}`)!.toString('utf8')) as { scopeName: string };
      expect(grammar.scopeName).toBe(g.scopeName);
    }
  });

  it('contributes a command with a title and a category for every command the server registers, and every client command', () => {
    const contributed = new Map(manifest.contributes.commands.map((c) => [c.command, c]));
    const serverCommands = serverCommandsInSource();
    expect(serverCommands.length).toBeGreaterThanOrEqual(5);
    for (const id of [...serverCommands, ...Object.values(CLIENT_COMMANDS)]) {
      const c = contributed.get(id);
      expect(c, `no contribution for ${id}`).toBeDefined();
      expect(c!.title.length).toBeGreaterThan(3);
      expect(c!.category).toBe('MTHDS');
    }
    // And nothing contributed that nobody registers.
    const known = new Set<string>([...serverCommands, ...Object.values(CLIENT_COMMANDS)]);
    expect(manifest.contributes.commands.map((c) => c.command).filter((id) => !known.has(id))).toEqual([]);
    for (const menu of Object.values(manifest.contributes.menus ?? {})) for (const item of menu) expect(contributed.has(item.command), item.command).toBe(true);
  });

  it('contributes the settings the server reads, and no token setting', () => {
    const props = manifest.contributes.configuration.properties;
    for (const key of ['mthds.runner.url', 'mthds.runner.tokenEnv', 'mthds.runner.timeoutMs', 'mthds.trace.server', 'mthds.diagnostics.debounceMs', 'mthds.diagnostics.dryRun', 'mthds.diagnostics.dryRunDelayMs']) expect(Object.keys(props), key).toContain(key);
    // The extension's defaults are the server's.
    expect(props['mthds.diagnostics.dryRun']).toMatchObject({ default: DEFAULT_SETTINGS.diagnostics.dryRun });
    expect(props['mthds.diagnostics.dryRunDelayMs']).toMatchObject({ default: DEFAULT_SETTINGS.diagnostics.dryRunDelayMs });
    expect(Object.keys(props).filter((k) => k.startsWith('mthds.format.')).length).toBeGreaterThan(0);
    // The token lives in the keychain (MTHDS: Set Runner Token), never in settings.json.
    expect(Object.keys(props)).not.toContain('mthds.runner.token');
    expect(props['mthds.trace.server']).toMatchObject({ default: 'off' });
  });

  it('ships a webview script that needs no network', () => {
    const script = files.get('extension/client/dist/graph.js')!.toString('utf8');
    const urls = [...script.matchAll(/https?:\/\/[^\s"'`)]+/g)].map((m) => m[0]);
    // The SVG namespace is a name, never fetched.
    expect(urls.filter((u) => u !== 'http://www.w3.org/2000/svg')).toEqual([]);
  });
});

describe('the unpacked extension', () => {
  let client: LspClient | undefined;
  afterAll(async () => {
    await client?.shutdown();
  });

  it('loads its client bundle with require(), as VS Code does', async () => {
    const main = path.join(unpacked, 'extension', manifest.main);
    // `vscode` exists only inside VS Code: a stand-in whose every member is a harmless stub.
    const probe = `
      const Module = require('node:module');
      const stub = new Proxy(function () {}, { get: (t, k) => (k === 'then' ? undefined : stub), apply: () => stub, construct: () => stub });
      const load = Module._load;
      Module._load = function (request, ...rest) { return request === 'vscode' ? stub : load.call(this, request, ...rest); };
      const ext = require(${JSON.stringify(main)});
      process.stdout.write(JSON.stringify(Object.keys(ext).sort()));
    `;
    const { stdout } = await run(process.execPath, ['-e', probe], { cwd: unpacked, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual(['activate', 'deactivate']);
  });

  it('starts its server over Node IPC, as the client does, and checks a bundle', async () => {
    const serverModule = path.join(unpacked, 'extension/server/dist/server.js');
    const child = fork(serverModule, ['--node-ipc'], { cwd: unpacked, stdio: ['pipe', 'pipe', 'pipe', 'ipc'], execArgv: [] });
    child.stderr?.on('data', () => undefined);
    child.stdout?.on('data', () => undefined);
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    client = new LspClient(connection, child, { runner: {} });
    connection.listen();
    const ws = tempWorkspace({}, { broken: path.join(REPO, 'examples/broken') });
    client.initializeResult = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uriOf(ws),
      workspaceFolders: [{ uri: uriOf(ws), name: 'ws' }],
      capabilities: PULL_CAPABILITIES,
    });
    await connection.sendNotification('initialized', {});
    // Every command the running server registers has a contribution in the manifest.
    const registered = client.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    expect(registered.length).toBeGreaterThan(0);
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    expect(registered.filter((id) => !contributed.has(id))).toEqual([]);

    const file = path.join(ws, 'broken/broken.mthds');
    const uri = uriOf(file);
    client.open(uri, readFileSync(file, 'utf8'));
    const report = (await connection.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as DocumentDiagnosticReport;
    expect(report.kind).toBe('full');
    if (report.kind === 'full') expect(report.items.map((d) => d.code)).toEqual(expect.arrayContaining(['method.schema_violation', 'method.pipe_unresolved', 'method.concept_unresolved']));
  });
});
