// The `mthds` command line.

import { runCheck } from './check.js';
import { runFormat } from './format.js';
import { runGraph } from './graph.js';
import { runServe } from './serve.js';
import { runWorker } from './worker.js';
import { VERSION } from '../version.js';
import { tuneHeap } from '../heap.js';

tuneHeap();

const USAGE = `Usage: mthds <command> [options]

Commands:
  check [paths...]     Check method bundles (.mthds) and packages (METHODS.toml).
                       A folder means its method tree or trees; default: the current folder.
    --format text|json|sarif|github   Output format (default: text).
    --no-dry-run         Skip the dry run (run after the static checks find no error).
    --functions FILE     A function module registering PipeFunc functions (repeatable); with it,
                         the environment check runs (functions, requirements.txt).
    --fix                Apply the safe fixes, then report what remains.
  format [paths...]    Format bundles and manifests in place (--check: list what would change).
  graph [paths...]     Print the method graph (--format mermaid|dot|json).
  serve                Serve the MTHDS runner protocol over HTTP.
    --port 8080 --host 127.0.0.1 --base-path /v1 --config FILE --functions FILE
    --queue redis://HOST:PORT   Queue started runs on Redis for workers (run state in Redis).
  worker               Run the started runs of a Redis queue.
    --queue redis://HOST:PORT --concurrency 4 --config FILE --functions FILE

Options:
  -h, --help           Show this help.
  -v, --version        Show the version.

Exit status: 0 no errors, 1 errors found, 2 usage error or nothing to check.`;

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
