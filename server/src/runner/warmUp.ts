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
import { catalogFromDeck } from '../language/modelCatalog.js';
import { NATIVE_CONCEPTS } from '../language/spec/natives.js';
import type { ResolvedConfig } from './config.js';
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
  /** Rounds of the generated bundles at most (each round's bundles are new). Default 200. */
  rounds?: number;
  /**
   * No round starts once the process has spent this much CPU time on the warm-up (all its threads:
   * V8 compiles on its own), milliseconds. Default 1000: a fresh `mthds serve` then spent 2.75 ms
   * per request on its first 200 distinct 30-pipe bundles and V8 optimized 152 functions after it
   * listened, against 6 ms and 314 without a warm-up and 2.35 ms and 102 with 1500 (1.7 ms per
   * request once warm; --trace-opt, one process, four connections).
   */
  cpuBudgetMs?: number;
  /** Every request and its answer, in order (tests compare them with plain verdicts). */
  onExchange?: (exchange: WarmUpExchange) => void;
}

/** Template fields of each pipe type, from the language description. */
const TEMPLATE_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(PIPE_TYPES.map((p) => [p.name, p.fields.filter((f) => holdsTemplate(f.value)).map((f) => f.name)]));

function holdsTemplate(value: ValueSpec): boolean {
  return value.kind === 'oneOf' ? value.options.some(holdsTemplate) : value.kind === 'string' && value.role === 'template';
}

/** A generated bundle: `label` is the last part of its domain (a pipe type, `all` or `valid`). */
export interface WarmUpBundle {
  label: string;
  text: string;
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
function pipeText(type: PipeTypeSpec, code: string, round: number, models: ModelChoices): string {
  let text = snippetText(type.snippet).replace(/^description = "/m, `description = "Round ${round}: `);
  const choices = type.modelCategory ? models.get(type.modelCategory) : undefined;
  if (choices?.length && type.fields.some((f) => f.name === 'model')) text = text.replace(/^output = .*$/m, (m) => `${m}\nmodel = "${choices[round % choices.length]}"`);
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
 * The bundles of one round: each pipe type alone, and every type together with what their
 * snippets name declared (pipes as the first operator's snippet, concepts with a field of every
 * type); once the pipes that stay invalid are known, the same without them, which is valid (the
 * dry run runs every pipe, the controllers' children included), as large as a real bundle. That
 * one makes the bulk of the work from then on, the others come back every eighth round: the
 * verdict of a valid bundle is the path most requests take.
 */
export function warmUpBundles(round: number, learned: Learned = nothingLearned(), models: ModelChoices = new Map()): WarmUpBundle[] {
  const operator = PIPE_TYPES.find((p) => p.kind === 'operator')!;
  // `copies`: the pipes again under other codes (and the concepts, renamed), so that loops over a
  // bundle's declarations run as many times as on real traffic.
  // `own`: the natives a pipe reads and produces replaced by concepts of the bundle refining them, as
  // real bundles name their own concepts.
  const together = (label: string, keep: (code: string) => boolean, copies: number, own = false): WarmUpBundle => {
    const parts = [header(round, label)];
    if (own) for (const native of NATIVE_CONCEPTS) parts.push(`[concept.${OWN}${native.code}]\ndescription = "Round ${round}: a ${native.code}"\nrefines = "${native.code}"\n`);
    for (let copy = 0; copy < copies; copy++) {
      const rename = (text: string): string => {
        const renamed = copy === 0 ? text : renameAll(text, learned, copy);
        return own ? renamed.replace(NATIVE_REF, (_m, code: string, multiplicity: string | undefined) => `"${OWN}${code}${multiplicity ?? ''}"`) : renamed;
      };
      for (const concept of learned.concepts) parts.push(rename(conceptText(concept, round)));
      for (const type of PIPE_TYPES) if (keep(snake(type.name))) parts.push(rename(pipeText(type, snake(type.name), round, models)));
      for (const pipe of learned.pipes) if (keep(pipe)) parts.push(rename(pipeText(operator, pipe, round, models)));
    }
    return { label, text: parts.join('\n') };
  };
  const bundles: WarmUpBundle[] = [];
  if (learned.invalid.size > 0) bundles.push(together('valid', (code) => !learned.invalid.has(code), VALID_COPIES, true));
  if (learned.invalid.size === 0 || round % 8 === 0) {
    for (const type of PIPE_TYPES) bundles.push({ label: snake(type.name), text: `${header(round, snake(type.name))}\n${pipeText(type, snake(type.name), round, models)}` });
    bundles.push(together('all', () => true, 1));
  }
  return bundles;
}

const OWN = 'Own';
/** A native concept named as a pipe's input or output. */
const NATIVE_REF = new RegExp(`"(${NATIVE_CONCEPTS.map((n) => n.code).join('|')})(\\[\\d*\\])?"`, 'g');

/** Copies of the pipes in the valid bundle: about 40 pipes, as many as a large real bundle. */
const VALID_COPIES = 3;

/** Model references the deck offers, by model category (the `model` field of pipes). */
export type ModelChoices = ReadonlyMap<string, readonly string[]>;

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

/** A concept with a field of every field type, and the optional keys of a field: choices, default, required. */
function conceptText(concept: string, round: number): string {
  const fields = FIELD_TYPES.map((t) => `${t}_field = { type = "${t}", description = "A ${t}"${FIELD_EXTRAS[t] ?? ''} }`);
  fields.push(`required_field = { type = "text", description = "Round ${round}", required = true }`, `choice_field = { description = "A choice", choices = ["a", "b", "c"], default_value = "a" }`);
  return `[concept.${concept}]\ndescription = "Round ${round}: the ${concept} of the warm-up"\n\n[concept.${concept}.structure]\n${fields.join('\n')}\n`;
}

/** The declarations of a bundle under other codes: pipes and learned concepts suffixed with `copy`. */
function renameAll(text: string, learned: Learned, copy: number): string {
  const pipes = [...PIPE_TYPES.map((t) => snake(t.name)), ...learned.pipes];
  let out = text;
  for (const pipe of pipes) out = out.replace(new RegExp(`(\\[pipe\\.|pipe = "|_outcome = "|= ")${pipe}(["\\]])`, 'g'), `$1${pipe}_${copy}$2`);
  for (const concept of learned.concepts) out = out.replace(new RegExp(`(\\[concept\\.|")${concept}([".\\]\\[])`, 'g'), `$1${concept}${copy}$2`);
  return out;
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
  const maxRounds = options.rounds ?? 200;
  const budget = options.cpuBudgetMs ?? 1000;
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
  const learned = nothingLearned();
  const models = modelChoices(state.deck.wire());
  let rounds = 0;
  let requests = 0;
  let failed = 0;
  try {
    while (rounds < maxRounds && cpuMs() < budget) {
      for (const bundle of warmUpBundles(rounds, learned, models)) {
        const contents = [bundle.text];
        const answer = await exchange(server, path, JSON.stringify({ mthds_contents: contents }));
        requests++;
        if (answer.status !== 200) failed++;
        if (rounds < 2 && bundle.label === 'all') learn(answer.body, learned, rounds === 0 ? 'names' : 'invalid');
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
