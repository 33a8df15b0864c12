// Entry point of `mthds-language-server`: the transport (--stdio, --node-ipc, --socket=N) is chosen
// by vscode-languageserver from the command line.

import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { startServer } from './server.js';
import { tuneHeap } from '../heap.js';

tuneHeap({ longLived: true });

const transports = ['--stdio', '--node-ipc', '--socket=', '--pipe=', '--clientProcessId'];
if (!process.argv.some((a) => transports.some((t) => a.startsWith(t)))) {
  process.stderr.write('Usage: mthds-language-server --stdio | --node-ipc | --socket=PORT\n');
  process.exit(2);
}

const connection = createConnection(ProposedFeatures.all);
// Whatever escapes a handler is logged, never fatal: an editor keeps its server.
process.on('uncaughtException', (error) => connection.console.error(`mthds: uncaught: ${error.stack ?? error.message}`));
process.on('unhandledRejection', (reason) => connection.console.error(`mthds: unhandled rejection: ${String(reason)}`));
startServer(connection);
