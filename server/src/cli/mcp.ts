// `mthds mcp`: the toolkit's engine for coding agents, as an MCP server over stdio (the official
// SDK), rooted at the working folder. stdout carries the protocol only; logs go to stderr.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { isDirectory } from '../workspace/discover.js';
import { VERSION } from '../version.js';
import { methodRunner } from './mcp/runner.js';
import { registerTools } from './mcp/tools.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

interface Writable {
  write(text: string): unknown;
}

export const MCP_OPTIONS = {
  root: { type: 'string' },
  runner: { type: 'string' },
  'token-env': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const MCP_USAGE = `Usage: mthds mcp [options]

Serves the Model Context Protocol over stdio for coding agents, with the tools check, fix, format,
graph, explain, pipe_io and run: the same checks, fixes, formatting and graph as the command line,
the registry's explanation of a code, what a pipe takes and gives, and runs. Nothing leaves the
machine unless --runner names a remote runner.

Options:
  --root DIR          The folder tool paths are relative to (default: the working folder).
  --runner URL        The runner the run tool uses, with its version segment
                      (e.g. http://127.0.0.1:8080/v1). Default: the built-in runner, started in
                      this process on loopback on first use (the mock provider answers).
  --token-env NAME    The environment variable holding the runner's bearer token.
  -h, --help          Show this help.

Exit status:
  0  the client closed the connection
  2  usage error

Examples:
  mthds mcp
  mthds mcp --root ~/methods --runner https://runner.example.com/v1 --token-env MTHDS_RUNNER_TOKEN`;

export async function runMcp(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: false, options: MCP_OPTIONS });
  } catch (error) {
    stderr.write(`mthds mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  const root = path.resolve(parsed.values.root ?? '.');
  if (!isDirectory(nodeFileSystem, root)) {
    stderr.write(`mthds mcp: --root ${root}: no such folder\n`);
    return 2;
  }
  const url = parsed.values.runner;
  if (url !== undefined && !/^https?:\/\/[^\s]+$/.test(url)) {
    stderr.write(`mthds mcp: --runner takes an http(s) URL, not '${url}'\n`);
    return 2;
  }
  const tokenEnv = parsed.values['token-env'];
  const token = tokenEnv !== undefined ? process.env[tokenEnv] : undefined;
  if (tokenEnv !== undefined && (token === undefined || token === '')) stderr.write(`mthds mcp: warning: ${tokenEnv} is not set: runs are sent without a token\n`);
  // The commands the tools run name files relative to the working folder, as in a terminal.
  process.chdir(root);
  const log = (line: string): void => void stderr.write(`mthds mcp: ${line}\n`);
  const runner = methodRunner(Object.assign({ log }, url !== undefined ? { url } : {}, token ? { token } : {}));
  const stopped = new Promise<void>((resolve) => {
    const handle = serveStdio(
      () => {
        const server = new McpServer({ name: 'mthds', version: VERSION }, { capabilities: { tools: {} } });
        registerTools(server, { root, runner });
        return server;
      },
      { onerror: (error) => log(error.message) },
    );
    // The client ends the session by closing our stdin.
    process.stdin.once('end', () => void handle.close().then(resolve, resolve));
    process.stdin.once('close', () => resolve());
  });
  await stopped;
  await runner.close();
  return 0;
}
