// The Claude Code plugin, in a real Claude Code (installed from the npm registry into .cache/ by
// test/claude/install-claude-code.sh; telemetry, error reports and updates off; a scratch HOME, no
// account): `claude plugin validate --strict` passes on the marketplace and on the plugin,
// `claude plugin marketplace add` and `claude plugin install mthds@mthds-tools` install it, and
// the installed plugin's language server and MCP server, started exactly as its manifest says
// (the toolkit's bins on PATH, as after `npm install -g ./server`), give coded diagnostics and
// the MCP tools. Its hook is run on a written bundle as Claude Code runs it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../..');
const CLAUDE = path.join(process.env['MTHDS_CLAUDE_CODE_DIR'] ?? path.join(REPO, '.cache/claude-code'), 'node_modules/.bin/claude');
const QUIET = { DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_BUG_COMMAND: '1' };

if (!existsSync(CLAUDE)) throw new Error(`Claude Code is not installed at ${CLAUDE}: run \`npm run test:claude\` (it installs it first)`);

interface Manifest {
  lspServers: Record<string, { command: string; args?: string[]; extensionToLanguage: Record<string, string> }>;
  mcpServers: Record<string, { command: string; args?: string[] }>;
}

let home: string;
let env: NodeJS.ProcessEnv;
let installPath: string;

/** The toolkit's bins, as `npm install -g ./server` puts them on PATH. */
function toolkitBins(): string {
  const bin = mkdtempSync(path.join(tmpdir(), 'mthds-bins-'));
  for (const [name, target] of [
    ['mthds', 'server/bin/mthds.js'],
    ['mthds-language-server', 'server/bin/mthds-language-server.js'],
  ]) {
    const shim = path.join(bin, name!);
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO, target!)}" "$@"\n`);
    chmodSync(shim, 0o755);
  }
  return bin;
}

function claude(args: string[], cwd = home): { status: number | null; out: string } {
  const r = spawnSync(CLAUDE, args, { cwd, env, encoding: 'utf8', timeout: 90_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  home = mkdtempSync(path.join(tmpdir(), 'mthds-claude-home-'));
  env = { ...process.env, ...QUIET, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: `${toolkitBins()}${path.delimiter}${process.env['PATH'] ?? ''}` };
  delete env['ANTHROPIC_API_KEY'];
});

describe('the Claude Code plugin', () => {
  it('passes `claude plugin validate --strict`, the marketplace and the plugin', () => {
    for (const target of [REPO, path.join(REPO, 'editors/claude-code')]) {
      const r = claude(['plugin', 'validate', '--strict', target]);
      expect(r.status, r.out).toBe(0);
      expect(r.out).toContain('Validation passed');
    }
  });

  it('installs from this repository as a marketplace', () => {
    const added = claude(['plugin', 'marketplace', 'add', REPO]);
    expect(added.status, added.out).toBe(0);
    const installed = claude(['plugin', 'install', 'mthds@mthds-tools']);
    expect(installed.status, installed.out).toBe(0);
    const record = JSON.parse(readFileSync(path.join(home, '.claude/plugins/installed_plugins.json'), 'utf8')) as { plugins: Record<string, Array<{ installPath: string }>> };
    installPath = record.plugins['mthds@mthds-tools']![0]!.installPath;
    expect(existsSync(path.join(installPath, 'skills/writing-methods/SKILL.md'))).toBe(true);
  });

  it("starts the installed plugin's language server as configured: coded diagnostics on a .mthds file", async () => {
    const manifest = JSON.parse(readFileSync(path.join(installPath, '.claude-plugin/plugin.json'), 'utf8')) as Manifest;
    const lsp = manifest.lspServers['mthds']!;
    expect(lsp.extensionToLanguage).toEqual({ '.mthds': 'mthds' });
    const ws = mkdtempSync(path.join(tmpdir(), 'mthds-claude-ws-'));
    const file = path.join(ws, 'broken.mthds');
    copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), file);
    const child: ChildProcess = spawn(lsp.command, lsp.args ?? [], { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection: MessageConnection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    try {
      const published = new Promise<PublishDiagnosticsParams>((resolve) => {
        connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
          if (p.uri === pathToFileURL(file).href && p.diagnostics.length > 0) resolve(p);
        });
      });
      connection.listen();
      const init = await connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', { processId: process.pid, rootUri: pathToFileURL(ws).href, workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'ws' }], capabilities: {} });
      expect(init.capabilities).toMatchObject({ callHierarchyProvider: true, implementationProvider: true, hoverProvider: true });
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(file).href, languageId: lsp.extensionToLanguage['.mthds'], version: 1, text: readFileSync(file, 'utf8') } });
      const diagnostics = (await published).diagnostics;
      expect(diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['method.schema_violation', 'method.pipe_unresolved', 'method.concept_unresolved']));
    } finally {
      await connection.sendRequest('shutdown').catch(() => undefined);
      connection.dispose();
      child.kill();
    }
  });

  it("starts the installed plugin's MCP server as configured: the toolkit's tools", async () => {
    const manifest = JSON.parse(readFileSync(path.join(installPath, '.claude-plugin/plugin.json'), 'utf8')) as Manifest;
    const mcp = manifest.mcpServers['mthds']!;
    const ws = mkdtempSync(path.join(tmpdir(), 'mthds-claude-mcp-'));
    copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), path.join(ws, 'broken.mthds'));
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: mcp.command, args: mcp.args ?? [], cwd: ws, env: env as Record<string, string>, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['check', 'explain', 'fix', 'format', 'graph', 'pipe_io', 'run']);
      const r = (await client.callTool({ name: 'check', arguments: {} })) as { structuredContent: { errors: number; findings: Array<{ code: string }> } };
      expect(r.structuredContent.errors).toBeGreaterThan(0);
      expect(r.structuredContent.findings.map((f) => f.code)).toContain('method.pipe_unresolved');
    } finally {
      await client.close();
    }
  });

  it("runs the installed plugin's hook on a written bundle: the findings as context, never a block", () => {
    const hooks = JSON.parse(readFileSync(path.join(installPath, 'hooks/hooks.json'), 'utf8')) as { hooks: { PostToolUse: Array<{ matcher: string; hooks: Array<{ command: string }> }> } };
    const entry = hooks.hooks.PostToolUse[0]!;
    expect(entry.matcher).toBe('Write|Edit|MultiEdit');
    const ws = mkdtempSync(path.join(tmpdir(), 'mthds-claude-hook-'));
    const file = path.join(ws, 'broken.mthds');
    copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), file);
    const command = entry.hooks[0]!.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', installPath);
    const run = (toolInput: Record<string, unknown>): { status: number | null; stdout: string } => {
      const r = spawnSync('sh', ['-c', command], { cwd: ws, env, encoding: 'utf8', input: JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Write', cwd: ws, tool_input: toolInput }) });
      return { status: r.status, stdout: r.stdout };
    };
    const broken = run({ file_path: file });
    expect(broken.status).toBe(0);
    const output = JSON.parse(broken.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(output.hookSpecificOutput.additionalContext).toMatch(/broken\.mthds:\d+:\d+: error method\.pipe_unresolved/);
    mkdirSync(path.join(ws, 'other'));
    writeFileSync(path.join(ws, 'other/notes.txt'), 'x');
    expect(run({ file_path: path.join(ws, 'other/notes.txt') })).toEqual({ status: 0, stdout: '' });
  });
});

