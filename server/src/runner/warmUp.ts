// Warm-up of a runner process before it takes connections. A cold process answers its first
// /validate requests while V8 still interprets and compiles the verdict's code (parse, check, dry
// run, template compile, serialisation): with 100 connections arriving at once on cold workers,
// those first seconds set the p99. So before it listens, the process sends itself /validate
// requests through the same request handler and Node's own HTTP parser and writer, over an
// in-memory connection (no socket, nothing a client can reach), for a bounded budget.
//
// The bundles are the language layer's sample bundles (every pipe type's snippet, valid), made new
// each round. The requests go to a state of their own (its own
// verdict cache, idempotency store, rate limits, run registry and body budget, none shared with
// the served state), so nothing a client can observe keeps a trace of them; the caches that remain
// (compiled templates) hold what any request would have put there, and change no answer.

import http from 'node:http';
import { Duplex } from 'node:stream';
import { catalogFromDeck } from '../language/modelCatalog.js';
import { sampleBundle, type ModelChoices } from '../language/sampleBundles.js';
import { toSnakeCase } from '../language/spec/lexical.js';
import { PIPE_TYPES } from '../language/spec/pipeTypes.js';
import { DEFAULT_WARM_UP_CPU_MS, type ResolvedConfig } from './config.js';
import type { FunctionRegistry } from './functions.js';
import { createHandler, createState } from './server.js';
import { localStores } from './sharedStores.js';

/** What a warm-up did: for the start-up log and the tests. */
export interface WarmUpReport {
  rounds: number;
  requests: number;
  /** Requests not answered 200 (none unless something is wrong). */
  failed: number;
  /** Wall time, milliseconds. */
  ms: number;
  /** CPU time of the process (user and system), milliseconds. */
  cpuMs: number;
}

export interface WarmUpExchange {
  contents: string[];
  status: number;
  body: string;
}

export interface WarmUpOptions {
  /** Rounds of the generated bundles at most (each round's bundles are new). Default 1000. */
  rounds?: number;
  /**
   * No round starts once the process has spent this much CPU time on the warm-up (all its threads:
   * V8 compiles on its own), milliseconds. Default DEFAULT_WARM_UP_CPU_MS (config.ts, with the
   * figures that chose it).
   */
  cpuBudgetMs?: number;
  /**
   * Nor once this much time has passed (milliseconds): on a machine whose cores are busy (the
   * workers of `mthds serve` warm up at once, other programs), the CPU budget alone would hold the
   * start for many times its length. Default: twice the CPU budget.
   */
  wallBudgetMs?: number;
  /** Every request and its answer, in order (tests compare them with plain verdicts). */
  onExchange?: (exchange: WarmUpExchange) => void;
}

/** A generated bundle: `label` is the last part of its domain (a pipe type, or `valid`). */
export interface WarmUpBundle {
  label: string;
  text: string;
}

/**
 * The bundles of one round, new each round (language/sampleBundles.ts: valid, every pipe type, the
 * pipes the controllers name, concepts with a field of every type): one as large as a real bundle
 * (36 or 54 pipes, top keys varying by round), which makes the bulk of the work, since the verdict
 * of a valid bundle is the path most requests take and the only one through the whole dry run;
 * every eighth round also each pipe type alone.
 */
export function warmUpBundles(round: number, models: ModelChoices = new Map()): WarmUpBundle[] {
  const bundles: WarmUpBundle[] = [
    {
      label: 'valid',
      text: sampleBundle({ domain: `warm_up_${round}_valid`, copies: 2 + ((round >> 1) % 2), variant: round, mainPipe: round % 3 !== 2, systemPrompt: round % 3 === 1, models }),
    },
  ];
  if (round % 8 === 0) {
    for (const type of PIPE_TYPES) {
      const label = toSnakeCase(type.name);
      bundles.push({ label, text: sampleBundle({ domain: `warm_up_${round}_${label}`, variant: round, types: [type], models }) });
    }
  }
  return bundles;
}

/** The references of a deck's GET /models body, by category. */
export function modelChoices(deckBody: unknown): ModelChoices {
  const byCategory = new Map<string, string[]>();
  for (const choice of catalogFromDeck(deckBody, 'warm-up').choices) {
    const list = byCategory.get(choice.category) ?? [];
    list.push(choice.reference);
    byCategory.set(choice.category, list);
  }
  return byCategory;
}

/**
 * One HTTP connection held in memory: the server reads `request` from it and writes its answer
 * into it; `done` gets the answer's bytes when the server ends the connection.
 */
class MemoryConnection extends Duplex {
  private readonly chunks: Buffer[] = [];

  constructor(
    request: Buffer,
    private readonly done: (answer: Buffer) => void,
  ) {
    super();
    // No end of input: a server reading the end of its connection ends it at once, answer unsent.
    this.push(request);
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    callback();
    this.done(Buffer.concat(this.chunks));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    callback(error);
    this.done(Buffer.concat(this.chunks));
  }

  // Read by Node's HTTP server on its connections.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
}

function exchange(server: http.Server, path: string, body: string): Promise<{ status: number; body: string }> {
  const bytes = Buffer.from(body);
  const request = Buffer.concat([
    Buffer.from(`POST ${path} HTTP/1.1\r\nHost: warm-up\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`),
    bytes,
  ]);
  return new Promise((resolve) => {
    let answered = false;
    const connection = new MemoryConnection(request, (answer) => {
      if (answered) return;
      answered = true;
      const text = answer.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: split < 0 ? '' : text.slice(split + 4) });
    });
    server.emit('connection', connection);
  });
}

/**
 * Runs the /validate path of this process on generated bundles, `rounds` rounds or until the CPU
 * budget is spent or the time budget is over, whichever comes first.
 */
export async function warmUp(config: ResolvedConfig, functions?: FunctionRegistry, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const maxRounds = options.rounds ?? 1000;
  const budget = options.cpuBudgetMs ?? DEFAULT_WARM_UP_CPU_MS;
  const wallBudget = options.wallBudgetMs ?? 2 * budget;
  // A state of its own, and without the parts a client could see: no verdict cache, no rate limit,
  // no shared stores (the primary's), no queue, no request log.
  // Anonymous: its requests carry no credential.
  const own: ResolvedConfig = { ...config, validateCache: { maxEntries: 0, maxBytes: 0 }, tokens: [] };
  delete own.rateLimit;
  own.runs = { ...config.runs };
  delete own.runs.queue;
  const state = createState(own, functions, localStores(own));
  const server = http.createServer(createHandler(state));
  const path = `${config.basePath}/validate`;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const cpuMs = (): number => {
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  const models = modelChoices(state.deck.wire());
  let rounds = 0;
  let requests = 0;
  let failed = 0;
  try {
    while (rounds < maxRounds && cpuMs() < budget && performance.now() - started < wallBudget) {
      for (const bundle of warmUpBundles(rounds, models)) {
        const contents = [bundle.text];
        const answer = await exchange(server, path, JSON.stringify({ mthds_contents: contents }));
        requests++;
        if (answer.status !== 200) failed++;
        options.onExchange?.({ contents, ...answer });
      }
      rounds++;
    }
  } finally {
    server.close();
    await state.queue.close();
  }
  return { rounds, requests, failed, ms: performance.now() - started, cpuMs: cpuMs() };
}
