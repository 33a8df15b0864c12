// Entry point of `mthds-language-server`: the transport (--stdio, --node-ipc, --socket=N) is chosen
// by vscode-languageserver from the command line.

import { createConnection, IPCMessageReader, IPCMessageWriter, ProposedFeatures, type Connection, type ConnectionOptions } from 'vscode-languageserver/node.js';
import { FrameWriter } from './frameWriter.js';
import { guardTransport, ProtocolGuard } from './protocolGuard.js';
import { MessageTurns } from './messageTurns.js';
import { passingReader } from './passingQueue.js';
import { StdinReader } from './stdinReader.js';
import { startServer } from './server.js';
import { collectStartupGarbage, heapForBurst } from '../heap.js';
import { VERSION } from '../version.js';
import { nodeHost } from './nodeHost.js';

const USAGE = `Usage: mthds-language-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME

The MTHDS language server (LSP 3.17): diagnostics with the error registry's codes across the whole
method tree, completion, hover, navigation, rename, formatting, quick fixes, code lenses, and the
runner commands (mthds.runner.validate, .execute, .start, .models, .version). Editors start it;
it reads its settings from the section "mthds" (workspace/configuration or initializationOptions):
runner.url, runner.token, runner.tokenEnv, runner.timeoutMs, diagnostics.debounceMs,
diagnostics.dryRun, diagnostics.dryRunDelayMs, diagnostics.warmUpMs, packages.dir.

Options:
  --stdio              Talk LSP over stdin and stdout (what most editors use).
  --node-ipc           Talk over Node IPC (a parent Node process, as VS Code does).
  --socket=PORT        Connect to a TCP socket the client listens on.
  --pipe=NAME          Connect to a named pipe (Windows) or Unix socket the client listens on.
  --clientProcessId=N  Exit when that process is gone (with any transport).
  -h, --help           Show this help.
  -v, --version        Show the version.

Environment:
  MTHDS_PACKAGES_DIR   The package store dependencies are read from (default ~/.mthds/packages).

Exit status:
  0  the client asked it to shut down and exit (or --help, --version)
  1  the client exited without asking it to shut down
  2  usage error (no transport given)
  3  the client's input broke the protocol's framing (stdio; the fault and its byte on stderr)

Examples:
  mthds-language-server --stdio
  node server/bin/mthds-language-server.js --socket=5007`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}

// The heap's long-lived growth factor is set once the start-up check has ended (heap.ts).

const transports = ['--stdio', '--node-ipc', '--socket=', '--pipe=', '--clientProcessId'];
if (!args.some((a) => transports.some((t) => a.startsWith(t)))) {
  process.stderr.write(`mthds-language-server: no transport given\n\n${USAGE}\n`);
  process.exit(2);
}

// Checks run in slices that let every queued message through first (messageTurns.ts).
const turns = new MessageTurns();
const options: ConnectionOptions = { messageStrategy: turns.strategy };
const guard = new ProtocolGuard();
const connection = connect();
// Whatever escapes a handler is logged, never fatal: an editor keeps its server.
process.on('uncaughtException', (error) => connection.console.error(`mthds: uncaught: ${error.stack ?? error.message}`));
process.on('unhandledRejection', (reason) => connection.console.error(`mthds: unhandled rejection: ${String(reason)}`));
startServer(connection, { host: nodeHost(), turns, collectAfterStartup: collectStartupGarbage, heapForBurst: () => heapForBurst() });
// Input read but not yet dispatched holds a pause open too (after listen: a listener of its own
// before the connection's would take the first messages from it). Over stdio the reader tells.
if (args.includes('--node-ipc')) process.on('message', () => turns.arrived());

/**
 * The connection over the transport of the command line. Over stdio and Node IPC the messages go
 * through the protocol guard (protocolGuard.ts), then wait their turn in a queue that lets a request
 * about one document pass other documents' notifications (passingQueue.ts); over stdio they are
 * read and framed on a thread of their own (stdinReader.ts, framing.ts).
 * Sockets and pipes are left to the library as they are.
 */
function connect(): Connection {
  if (args.includes('--stdio')) {
    // Read and decoded on a thread of its own (stdinReader.ts); a broken frame ends the process.
    const reader = new StdinReader({
      fault: (fault) => {
        process.stderr.write(`mthds-language-server: the input breaks the protocol's framing: ${fault}; exiting so that the client starts the server again\n`);
        process.exit(3);
      },
      end: () => process.exit(guard.shutDown ? 0 : 1),
      failed: (reason) => {
        process.stderr.write(`mthds-language-server: the thread reading stdin failed: ${reason}\n`);
        process.exit(1);
      },
      arrived: () => turns.arrived(),
    });
    // The library's console patch is for the stdio it opens itself: here stdout carries the protocol.
    for (const level of ['log', 'info', 'debug', 'warn'] as const) console[level] = (...parts: unknown[]) => console.error(...parts);
    // Long messages are made in slices, and answers pass them (frameWriter.ts).
    const guarded = guardTransport(reader, new FrameWriter(process.stdout), guard);
    return createConnection(ProposedFeatures.all, passingReader(guarded.reader, () => turns.count()), guarded.writer, options);
  }
  if (args.includes('--node-ipc')) {
    const guarded = guardTransport(new IPCMessageReader(process), new IPCMessageWriter(process), guard);
    return createConnection(ProposedFeatures.all, passingReader(guarded.reader, () => turns.count()), guarded.writer, options);
  }
  return createConnection(ProposedFeatures.all, options);
}
