// Warm-up of a runner process before it takes connections. A cold process answers its first
// /validate requests while V8 still interprets and compiles the verdict's code (parse, check, dry
// run, template compile, serialisation): with 100 connections arriving at once on cold workers,
// those first seconds set the p99. So before it listens, the process sends itself /validate
// requests through the same request handler and Node's own HTTP parser and writer, over an
// in-memory connection (no socket, nothing a client can reach), for a bounded budget.
//
// The bundles are generated from the language description (every pipe type's snippet, with its
// templates), not from a list of their own. The requests go to a state of their own (its own
// verdict cache, idempotency store, rate limits, run registry and body budget, none shared with
// the served state), so nothing a client can observe keeps a trace of them; the caches that remain
// (compiled templates) hold what any request would have put there, and change no answer.

import http from 'node:http';
import { Duplex } from 'node:stream';
import { snippetText } from '../language/complete/snippets.js';
import { FIELD_TYPES } from '../language/spec/bundle.js';
import { PIPE_TYPES, type PipeTypeSpec } from '../language/spec/pipeTypes.js';
import type { ValueSpec } from '../language/spec/values.js';
import type { ResolvedConfig } from './config.js';
import type { FunctionRegistry } from './functions.js';
import { createHandler, createState } from './server.js';
import { localStores } from './sharedStores.js';

/** What a warm-up did: for the start-up log and the tests. */
export interface WarmUpReport {
  rounds: number;
  requests: number;
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
  /** Rounds of the generated bundles (each round's bundles are new). Default 12. */
  rounds?: number;
  /** No round starts once this much CPU time is spent, milliseconds. Default 1000. */
  cpuBudgetMs?: number;
  /** Every request and its answer, in order (tests compare them with plain verdicts). */
  onExchange?: (exchange: WarmUpExchange) => void;
}

/** Template fields of each pipe type, from the language description. */
const TEMPLATE_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(PIPE_TYPES.map((p) => [p.name, p.fields.filter((f) => holdsTemplate(f.value)).map((f) => f.name)]));

function holdsTemplate(value: ValueSpec): boolean {
  return value.kind === 'oneOf' ? value.options.some(holdsTemplate) : value.kind === 'string' && value.role === 'template';
}

/** What the first rounds' verdicts teach: names the snippets use without declaring them, pipes that stay invalid. */
export interface Learned {
  pipes: Set<string>;
  concepts: Set<string>;
  /** Pipes of the bundle of every type with errors of their own once the names are declared. */
  invalid: Set<string>;
}

export function nothingLearned(): Learned {
  return { pipes: new Set(), concepts: new Set(), invalid: new Set() };
}

/**
 * A pipe of type `type` from its snippet, made distinct for `round`: its description, and each
 * template's opening (plain text on even rounds, a Jinja statement on odd ones, so that both the
 * shorthand renderer and the Jinja compiler see new templates).
 */
function pipeText(type: PipeTypeSpec, code: string, round: number): string {
  let text = snippetText(type.snippet).replace(/^description = "/m, `description = "Round ${round}: `);
  const opening = round % 2 === 0 ? `Round ${round}:` : `{% if true %}Round ${round}{% endif %}:`;
  for (const field of TEMPLATE_FIELDS.get(type.name) ?? []) {
    text = text.replace(new RegExp(`^${field} = """\n`, 'm'), (m) => `${m}${opening}\n`).replace(new RegExp(`^${field} = "(?!"")`, 'm'), (m) => `${m}${opening} `);
  }
  return `[pipe.${code}]\n${text}\n`;
}

function header(round: number, label: string): string {
  return `domain = "warm_up_${round}_${label}"\ndescription = "Warm-up bundle ${round} (${label})"\n`;
}

/**
 * The bundles of one round: each pipe type alone; every type together, with what their snippets
 * name declared (pipes as the first operator's snippet, concepts with a structure); and the same
 * without the pipes that stay invalid, which is valid, so that the dry run runs the controllers.
 */
export function warmUpBundles(round: number, learned: Learned = nothingLearned()): string[] {
  const bundles = PIPE_TYPES.map((type) => `${header(round, snake(type.name))}\n${pipeText(type, snake(type.name), round)}`);
  const operator = PIPE_TYPES.find((p) => p.kind === 'operator')!;
  const together = (label: string, keep: (code: string) => boolean): string => {
    const parts = [header(round, label)];
    for (const concept of learned.concepts) {
      const fields = FIELD_TYPES.map((t) => `${t}_field = { type = "${t}", description = "A ${t}"${FIELD_EXTRAS[t] ?? ''} }`);
      parts.push(`[concept.${concept}]\ndescription = "Round ${round}: the ${concept} of the warm-up"\n\n[concept.${concept}.structure]\n${fields.join('\n')}\n`);
    }
    for (const type of PIPE_TYPES) if (keep(snake(type.name))) parts.push(pipeText(type, snake(type.name), round));
    for (const pipe of learned.pipes) if (keep(pipe)) parts.push(pipeText(operator, pipe, round));
    return parts.join('\n');
  };
  bundles.push(together('all', () => true));
  if (learned.invalid.size > 0) bundles.push(together('valid', (code) => !learned.invalid.has(code)));
  return bundles;
}

/** What the compound field types need beside their type, so that every type is minted. */
const FIELD_EXTRAS: Partial<Record<(typeof FIELD_TYPES)[number], string>> = {
  list: ', item_type = "text"',
  dict: ', key_type = "text", value_type = "integer"',
  concept: ', concept_ref = "Text"',
};

function snake(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

interface VerdictItem {
  code?: unknown;
  params?: Record<string, unknown>;
  pipe_code?: unknown;
}

/** Reads what a verdict reports (registry codes and their params). */
function learn(body: string, learned: Learned, what: 'names' | 'invalid'): void {
  let verdict: unknown;
  try {
    verdict = JSON.parse(body);
  } catch {
    return;
  }
  const errors = (verdict as { validation_errors?: unknown }).validation_errors;
  if (!Array.isArray(errors)) return;
  for (const error of errors as VerdictItem[]) {
    if (what === 'invalid') {
      if (typeof error.pipe_code === 'string') learned.invalid.add(error.pipe_code);
      continue;
    }
    const name = error.code === 'method.pipe_unresolved' ? error.params?.['missing'] : error.code === 'method.concept_unresolved' ? error.params?.['concept'] : undefined;
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    (error.code === 'method.pipe_unresolved' ? learned.pipes : learned.concepts).add(name);
  }
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
 * budget is spent, whichever comes first.
 */
export async function warmUp(config: ResolvedConfig, functions?: FunctionRegistry, options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const maxRounds = options.rounds ?? 12;
  const budget = options.cpuBudgetMs ?? 1000;
  // A state of its own, and without the parts a client could see: no verdict cache, no rate limit,
  // no shared stores (the primary's), no queue, no request log.
  const own: ResolvedConfig = { ...config, validateCache: { maxEntries: 0, maxBytes: 0 } };
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
  const learned = nothingLearned();
  let rounds = 0;
  let requests = 0;
  try {
    while (rounds < maxRounds && cpuMs() < budget) {
      for (const text of warmUpBundles(rounds, learned)) {
        const contents = [text];
        const answer = await exchange(server, path, JSON.stringify({ mthds_contents: contents }));
        requests++;
        if (rounds < 2 && text.includes('_all"')) learn(answer.body, learned, rounds === 0 ? 'names' : 'invalid');
        options.onExchange?.({ contents, ...answer });
      }
      rounds++;
    }
  } finally {
    server.close();
    await state.queue.close();
  }
  return { rounds, requests, ms: performance.now() - started, cpuMs: cpuMs() };
}
