// Bytes that are not HTTP still get a registry problem, never a bare status line.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunner } from '../../../server/src/runner/index.js';

let runner: Awaited<ReturnType<typeof startRunner>>;
beforeAll(async () => {
  runner = await startRunner({ port: 0, host: '127.0.0.1', log: () => {} });
});
afterAll(async () => {
  await runner.close();
});

function raw(bytes: string): Promise<string> {
  const url = new URL(runner.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('malformed HTTP', () => {
  it('answers a problem document with a registry code', async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 422 /);
    expect(head).toContain('Content-Type: application/problem+json');
    const problem = JSON.parse(body!) as { type: string; status: number; request_id: string };
    expect(problem.type.endsWith('request.invalid')).toBe(true);
    expect(problem.status).toBe(422);
    expect(head).toContain(`X-Request-ID: ${problem.request_id}`);
  });
});
