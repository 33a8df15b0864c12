// The `mthds` command line.

import cluster from 'node:cluster';
import { runCheck } from './check.js';
import { runFormat } from './format.js';
import { runGraph } from './graph.js';
import { runMcp } from './mcp.js';
import { runServe } from './serve.js';
import { runWorker } from './worker.js';
import { VERSION } from '../version.js';
import { CLOSED_OUTPUT_STATUS, exitWithWorkers, stopQuietlyWhenOutputCloses } from './closedOutput.js';

stopQuietlyWhenOutputCloses([process.stdout, process.stderr], (status) =>
  exitWithWorkers(status, Object.values(cluster.workers ?? {}).flatMap((w) => (w ? [w.process] : [])), (code) => process.exit(code)),
);

const USAGE = `Usage: mthds <command> [options]

Commands:
  check [paths...]     Check method bundles (.mthds) and packages (METHODS.toml), then dry-run them.
  format [paths...]    Format bundles and manifests in place (--check: list what would change).
  graph [paths...]     Print the method graph (mermaid, dot, json, svg or html).
  serve                Serve the MTHDS runner protocol over HTTP (POST /execute, /start, /validate),
                       in-process or on a Redis queue (--queue redis://HOST:PORT).
  worker               Run the started runs of a Redis queue (--queue redis://HOST:PORT).
  mcp                  Serve the tools of this command line to coding agents (MCP over stdio).

  mthds <command> --help shows a command's options, exit status and examples.

Options:
  -h, --help           Show this help.
  -v, --version        Show the version.

Exit status: 0 success, 1 problems found, 2 usage error or nothing to do; each command's help
says more. An internal error exits with 70 (MTHDS_DEBUG=1 prints its stack); ${CLOSED_OUTPUT_STATUS} when the
output is closed before the command is done (\`mthds check | head -1\`): it stops at once, quietly.

Examples:
  mthds check examples/
  mthds graph --format svg examples/news > news.svg
  mthds serve --port 8080`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === 'check') return runCheck(rest, process.stdout, process.stderr);
  if (command === 'serve') return runServe(rest, process.stdout, process.stderr);
  if (command === 'worker') return runWorker(rest, process.stdout, process.stderr);
  if (command === 'format') return runFormat(rest, process.stdout, process.stderr);
  if (command === 'graph') return runGraph(rest, process.stdout, process.stderr);
  if (command === 'mcp') return runMcp(rest, process.stdout, process.stderr);
  process.stderr.write(`mthds: unknown command '${command}'\n\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not a user error: say so plainly, without a stack trace unless asked.
    process.stderr.write(`mthds: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env['MTHDS_DEBUG']) process.stderr.write(`${error instanceof Error ? error.stack : ''}\n`);
    process.exitCode = 70;
  },
);
