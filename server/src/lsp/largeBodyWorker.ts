// The thread that decodes the large messages the stdin thread has framed (stdinWorker.ts): their
// UTF-8 and JSON take seconds at 50 MB, during which the stdin thread goes on reading the messages
// behind them. The long strings go back as bytes (packedStrings.ts).

import { parentPort } from 'node:worker_threads';
import { packStrings } from './packedStrings.js';
import { notJson, type LargeBody, type LargeBodyDecoded } from './stdinEvents.js';

const port = parentPort;
if (port === null) throw new Error('largeBodyWorker.js runs as a worker thread');

port.on('message', ({ ticket, bytes }: LargeBody) => {
  let answer: LargeBodyDecoded;
  let transfer: ArrayBuffer[] = [];
  try {
    const message: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    const strings = packStrings(message);
    answer = { ticket, message, strings };
    transfer = strings.map((s) => s.bytes);
  } catch (error) {
    answer = { ticket, error: notJson(error) };
  }
  port.postMessage(answer, transfer);
});
