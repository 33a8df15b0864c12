// Work in slices and queued messages: a pause between two slices lets every message queued
// meanwhile through (vscode-jsonrpc dispatches one per turn of the event loop), so a request queued
// behind a burst of notifications waits one slice, not one slice per notification.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { MessageTurns, oneTurn } from '../../../server/src/lsp/messageTurns.js';

/** A connected pair: the server side counts its dispatches with `turns`. */
function pair(turns: MessageTurns): { client: MessageConnection; server: MessageConnection } {
  const up = new PassThrough();
  const down = new PassThrough();
  const server = createMessageConnection(new StreamMessageReader(up), new StreamMessageWriter(down), undefined, { messageStrategy: turns.strategy });
  const client = createMessageConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  server.listen();
  client.listen();
  return { client, server };
}

function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * A burst of notifications arrives while a check runs three slices (started by the first message):
 * the order in which slices (`s`) and notifications (`n`) ran.
 */
async function order(pause: (turns: MessageTurns) => Promise<void>): Promise<string[]> {
  const turns = new MessageTurns();
  const { client, server } = pair(turns);
  const log: string[] = [];
  const done = new Promise<void>((resolve) => {
    server.onNotification('start', () => {
      void (async () => {
        for (let k = 0; k < 3; k++) {
          log.push('s');
          spin(2);
          await pause(turns);
        }
        resolve();
      })();
    });
  });
  server.onNotification('n', () => log.push('n'));
  await Promise.all([client.sendNotification('start'), ...Array.from({ length: 20 }, () => client.sendNotification('n'))]);
  await done;
  // Whatever was still queued.
  for (let i = 0; i < 30 && log.filter((e) => e === 'n').length < 20; i++) await oneTurn();
  client.dispose();
  server.dispose();
  return log;
}

describe('pausing work in slices for queued messages', () => {
  it('lets the whole queued burst through before the next slice', async () => {
    const log = await order((turns) => turns.pause());
    expect(log.filter((e) => e === 'n')).toHaveLength(20);
    // The first slice, then every notification, then the other slices.
    expect(log.join('')).toBe(`s${'n'.repeat(20)}ss`);
  });

  it('(one turn per pause lets one message through per slice)', async () => {
    const log = await order(() => oneTurn());
    expect(log.join('').startsWith(`s${'n'.repeat(20)}`)).toBe(false);
  });

  it('is not quiet in a turn in which input arrived (its message is dispatched after the pause callback of that turn)', async () => {
    const turns = new MessageTurns();
    let ended = false;
    const paused = turns.pause(60_000).then(() => (ended = true));
    for (let i = 0; i < 5; i++) {
      turns.arrived();
      await oneTurn();
      expect(ended).toBe(false);
    }
    await paused;
    expect(turns.count()).toBe(0);
  });

  it('lets a message read meanwhile through even when its bound passed in its first turn (a collection)', async () => {
    const turns = new MessageTurns();
    const { client, server } = pair(turns);
    let handled = 0;
    server.onNotification('n', () => (handled += 1));
    await client.sendNotification('n');
    // A bound of 0 ms: passed at the first turn, as after a collection of 20 ms.
    await turns.pause(0);
    expect(handled).toBe(1);
    client.dispose();
    server.dispose();
  });

  it('under a flood, gives the messages as long as the work before the pause ran (a slice and a collection)', async () => {
    let clock = 0;
    const turns = new MessageTurns(() => clock);
    // A flood: every turn dispatches a message and takes 5 ms.
    let flooding = true;
    let during = 0;
    const flood = (): void => {
      if (!flooding) return;
      clock += 5;
      turns.strategy.handleMessage({ jsonrpc: '2.0' }, () => (during += 1));
      setImmediate(flood);
    };
    await turns.pause();
    // 40 ms of work (a slice of 8 ms and a collection of 32 ms), then a pause under the flood.
    clock += 40;
    setImmediate(flood);
    await turns.pause();
    flooding = false;
    // About 40 ms of messages (8 turns of 5 ms), not a slice's 8 ms (2 turns, 4 at least).
    expect(during).toBeGreaterThanOrEqual(8);
    expect(during).toBeLessThanOrEqual(11);
  });

  it('counts what the connection dispatched, and gives up waiting after its bound', async () => {
    const turns = new MessageTurns();
    const { client, server } = pair(turns);
    server.onNotification('n', () => undefined);
    await client.sendNotification('n');
    for (let i = 0; i < 10 && turns.count() === 0; i++) await oneTurn();
    expect(turns.count()).toBe(1);
    // A flood that never pauses: the pause ends at its bound all the same.
    let flooding = true;
    const flood = (async () => {
      while (flooding) {
        await client.sendNotification('n');
        await oneTurn();
      }
    })();
    const t = performance.now();
    await turns.pause(30);
    expect(performance.now() - t).toBeLessThan(1000);
    flooding = false;
    await flood;
    client.dispose();
    server.dispose();
  });
});
