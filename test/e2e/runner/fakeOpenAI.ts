// A tiny OpenAI-compatible server on loopback: the real-provider path is tested against it, no
// network involved. Each test decides the answers; every request is recorded.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export type FakeAnswer = { status?: number; headers?: Record<string, string>; json?: unknown; raw?: string; delayMs?: number };

export interface FakeOpenAI {
  url: string;
  requests: FakeRequest[];
  answer: (request: FakeRequest) => FakeAnswer;
  close(): Promise<void>;
}

export function chatCompletion(content: string): unknown {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

// A 1x1 transparent PNG.
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export async function startFakeOpenAI(answer: FakeOpenAI['answer']): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = { url: '', requests: [], answer, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: FakeRequest = { path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined };
      fake.requests.push(request);
      const a = fake.answer(request);
      const reply = (): void => {
        res.writeHead(a.status ?? 200, { 'Content-Type': 'application/json', ...(a.headers ?? {}) });
        res.end(a.raw ?? JSON.stringify(a.json ?? {}));
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
