// The language server in process, over streams: what it writes can be watched as it writes it,
// and raw frames written to it arrive as a client's would.

import { PassThrough } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node.js';
import { MessageTurns } from '../../server/src/lsp/messageTurns.js';
import { startServer } from '../../server/src/lsp/server.js';
import { nodeHost } from '../../server/src/lsp/nodeHost.js';

/** A JSON-RPC message as the transport carries it. */
export function frame(message: object): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * A started server (`up`: what it reads, `down`: what it writes) and a client connection to it, not
 * yet listening. `turns: false`: started as an embedder that counts no messages would start it.
 */
export function inProcessServer({ turns: counted = true }: { turns?: boolean } = {}): { up: PassThrough; down: PassThrough; server: Connection; client: MessageConnection } {
  const up = new PassThrough();
  const down = new PassThrough();
  const turns = counted ? new MessageTurns() : undefined;
  const server = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down), turns ? { messageStrategy: turns.strategy } : {});
  startServer(server, { host: nodeHost(), ...(turns ? { turns } : {}) });
  const client = createMessageConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  return { up, down, server, client };
}
