// The runner commands (workspace/executeCommand): version, models, validate (the verdict's errors
// shown as diagnostics of source "runner"), execute (the output opened as a JSON document) and start
// (the run id shown, then the run followed to its end: progress.ts). Every command answers `{ ok, ... }` to the client and tells the user through
// window/showMessage; a runner failure is a message, never an exception.

import path from 'node:path';
import { MessageType, ShowMessageNotification, type Connection, type Diagnostic, type Position } from 'vscode-languageserver';
import type { Bundle, PipeDecl } from '../../language/model.js';
import type { MethodTree } from '../../language/tree.js';
import type { RunnerResult } from '../../protocol/client.js';
import type { RunInput, RunRequest } from '../../protocol/types.js';
import { positionToOffset } from '../../syntax/positions.js';
import type { Session } from '../../workspace/session.js';
import type { FileSystem } from '../../workspace/fileSystem.js';
import { toLspRange, type TextLocator } from '../convert.js';
import type { Diagnostics } from '../diagnostics/index.js';
import { describeRunnerError } from './messages.js';
import { RunnerNeeded, type LinkedRunner, type RunnerLink } from './link.js';
import { locateRunnerErrors } from './locate.js';
import { followRun } from './progress.js';

export const RUNNER_COMMANDS = ['mthds.runner.version', 'mthds.runner.models', 'mthds.runner.validate', 'mthds.runner.execute', 'mthds.runner.start'] as const;
export const RUNNER_SOURCE = 'runner';
/** The file beside a bundle whose inputs a run takes when none are given. */
export const INPUTS_FILE = 'inputs.json';

export type CommandAnswer = { ok: true; [key: string]: unknown } | { ok: false; message: string };

export interface RunnerCommandContext {
  connection: Connection;
  link: RunnerLink;
  session: Session;
  /** The file identity of a document's URI. */
  fileOf(uri: string): string;
  /** Saves a run's output for the editor to open (its URI); absent where nothing can be saved. */
  saveRunOutput?: (pipeCode: string, runId: string, output: unknown) => string;
  diagnostics: Diagnostics;
  locator: TextLocator;
  canShowDocument: () => boolean;
  /** Whether the client accepts work-done progress created by the server. */
  canShowProgress?: () => boolean;
  /** How often a started run's status is read (tests shorten it). */
  followIntervalMs?: number;
}

/** Arguments of execute/start: `{ uri, pipe?, position?, inputs? }` or `[uri, position?, inputs?]`. */
interface RunArgs {
  uri?: string;
  pipe?: string;
  position?: Position;
  inputs?: Record<string, RunInput>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPosition(v: unknown): v is Position {
  return isRecord(v) && typeof v['line'] === 'number' && typeof v['character'] === 'number';
}

function runArgs(args: readonly unknown[]): RunArgs {
  const out: RunArgs = {};
  const [first, second, third] = args;
  if (isRecord(first)) {
    if (typeof first['uri'] === 'string') out.uri = first['uri'];
    if (typeof first['pipe'] === 'string') out.pipe = first['pipe'];
    if (isPosition(first['position'])) out.position = first['position'];
    if (isRecord(first['inputs'])) out.inputs = first['inputs'] as Record<string, RunInput>;
    return out;
  }
  if (typeof first === 'string') out.uri = first;
  if (isPosition(second)) out.position = second;
  if (isRecord(third)) out.inputs = third as Record<string, RunInput>;
  return out;
}

class CommandError extends Error {}

export async function executeRunnerCommand(ctx: RunnerCommandContext, command: string, args: readonly unknown[]): Promise<CommandAnswer> {
  try {
    switch (command) {
      case 'mthds.runner.version':
        return await version(ctx);
      case 'mthds.runner.models':
        return await models(ctx, typeof args[0] === 'string' ? args[0] : isRecord(args[0]) && typeof args[0]['type'] === 'string' ? args[0]['type'] : undefined);
      case 'mthds.runner.validate':
        return await validate(ctx, runArgs(args));
      case 'mthds.runner.execute':
        return await run(ctx, runArgs(args), 'execute');
      case 'mthds.runner.start':
        return await run(ctx, runArgs(args), 'start');
      default:
        return fail(ctx, `Unknown command ${command}.`);
    }
  } catch (error) {
    return fail(ctx, error instanceof CommandError || error instanceof RunnerNeeded ? error.message : `The runner command failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function show(ctx: RunnerCommandContext, type: MessageType, message: string): void {
  // A notification, not a request: the command does not wait for the user to dismiss it.
  void ctx.connection.sendNotification(ShowMessageNotification.type, { type, message });
}

function fail(ctx: RunnerCommandContext, message: string): CommandAnswer {
  show(ctx, MessageType.Error, message);
  return { ok: false, message };
}

/** A failed call as a message; a successful one as its value. */
function unwrap<T>(linked: LinkedRunner, result: RunnerResult<T>): { value: T; status: number } {
  if (!result.ok) throw new CommandError(describeRunnerError(result.error, linked.url, linked.origin));
  return { value: result.value, status: result.status };
}

async function version(ctx: RunnerCommandContext): Promise<CommandAnswer> {
  const linked = await ctx.link.connect();
  const { value } = unwrap(linked, await linked.client.version());
  const runner = typeof value.runner_version === 'string' ? `, runner ${value.runner_version}` : '';
  show(ctx, MessageType.Info, `Runner ${linked.builtIn ? '(built-in) ' : ''}at ${linked.url}: protocol ${value.protocol_version}${runner}.`);
  return { ok: true, url: linked.url, builtIn: linked.builtIn, version: value };
}

async function models(ctx: RunnerCommandContext, type: string | undefined): Promise<CommandAnswer> {
  const linked = await ctx.link.connect();
  const { value } = unwrap(linked, await linked.client.models(type));
  const names = value.models.map((m) => m.name);
  show(ctx, MessageType.Info, `${names.length} model${names.length === 1 ? '' : 's'}${type ? ` of type ${type}` : ''}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`);
  return { ok: true, models: value };
}

interface MethodPayload {
  file: string;
  tree: MethodTree;
  treeKey: string;
  bundle: Bundle | undefined;
  contents: string[];
  sources: string[];
  /** Every name the runner may use for a file -> the file. */
  names: Map<string, string>;
}

/** The bundles of the tree of a document, named by their paths in the tree. */
function methodOf(ctx: RunnerCommandContext, uri: string | undefined): MethodPayload {
  if (uri === undefined) throw new CommandError('Open a method bundle (.mthds) first: the command needs a document.');
  const file = ctx.fileOf(uri);
  const check = ctx.diagnostics.ensureCurrent(file);
  const tree = check.tree ?? ctx.session.check(check.id).tree;
  if (!tree || tree.bundles.length === 0) throw new CommandError('The document belongs to no method tree with bundles.');
  const names = new Map<string, string>();
  const baseCount = new Map<string, number>();
  for (const b of tree.bundles) baseCount.set(path.basename(b.file), (baseCount.get(path.basename(b.file)) ?? 0) + 1);
  const sources = tree.bundles.map((b) => {
    const name = path.isAbsolute(b.file) && tree.root !== '' ? path.relative(tree.root, b.file).split(path.sep).join('/') : `${path.basename(b.file).replace(/[^A-Za-z0-9_.-]/g, '_') || 'untitled'}.mthds`;
    names.set(name, b.file);
    names.set(b.file, b.file);
    if (baseCount.get(path.basename(b.file)) === 1) names.set(path.basename(b.file), b.file);
    return name;
  });
  return { file, tree, treeKey: check.id.key, bundle: tree.bundles.find((b) => b.file === file), contents: tree.bundles.map((b) => b.doc.text), sources, names };
}

async function validate(ctx: RunnerCommandContext, args: RunArgs): Promise<CommandAnswer> {
  const method = methodOf(ctx, args.uri);
  const linked = await ctx.link.connect();
  const { value } = unwrap(linked, await linked.client.validate({ mthds_contents: method.contents, mthds_sources: method.sources }));
  if (value.is_valid) {
    ctx.diagnostics.setRunnerDiagnostics(method.treeKey, new Map());
    const pending = value.pending_signatures.length > 0 ? ` Pending signatures: ${value.pending_signatures.join(', ')}.` : '';
    show(ctx, MessageType.Info, `The runner validated the method: valid${value.is_runnable ? ' and runnable' : ', not runnable yet'}.${pending}`);
    return { ok: true, verdict: value, diagnostics: 0 };
  }
  const located = locateRunnerErrors(value.validation_errors, method.tree, method.names);
  const perFile = new Map<string, Diagnostic[]>();
  for (const e of located) {
    if (e.file === '') continue;
    const diagnostic: Diagnostic = { range: toLspRange(ctx.locator, e.file, e.range), severity: 1, source: RUNNER_SOURCE, code: e.code, message: e.message };
    (perFile.get(e.file) ?? perFile.set(e.file, []).get(e.file)!).push(diagnostic);
  }
  ctx.diagnostics.setRunnerDiagnostics(method.treeKey, perFile);
  const n = value.validation_errors.length;
  show(ctx, MessageType.Warning, `The runner found ${n} validation error${n === 1 ? '' : 's'}${typeof value.message === 'string' ? `: ${value.message}` : '.'}`);
  return { ok: true, verdict: value, diagnostics: located.length };
}

function qualified(pipe: PipeDecl): string {
  const domain = pipe.bundle.domain?.value;
  return domain === undefined ? pipe.code : `${domain}.${pipe.code}`;
}

/** The pipe to run: named, else under the cursor, else the bundle's main_pipe, else the package's. */
function pipeToRun(method: MethodPayload, args: RunArgs): string {
  if (args.pipe !== undefined) return args.pipe;
  const bundle = method.bundle;
  if (bundle && args.position) {
    const offset = positionToOffset(bundle.doc.lineStarts, bundle.doc.text, args.position);
    const under = bundle.pipes.find((p) => p.range.start <= offset && offset <= p.range.end);
    if (under) return qualified(under);
  }
  const main = bundle?.mainPipe?.value;
  if (bundle && main) {
    const pipe = bundle.pipes.find((p) => p.code === main);
    return pipe ? qualified(pipe) : main;
  }
  const manifestMain = method.tree.manifest?.mainPipe?.value;
  if (manifestMain) return manifestMain;
  throw new CommandError('No pipe to run: put the cursor in a pipe, or declare a main_pipe.');
}

/** Inputs given, else those of inputs.json beside the bundle, else none. */
function inputsOf(fs: FileSystem, method: MethodPayload, args: RunArgs): Record<string, RunInput> | undefined {
  if (args.inputs) return args.inputs;
  if (!path.isAbsolute(method.file)) return undefined;
  const file = path.join(path.dirname(method.file), INPUTS_FILE);
  if (!fs.exists(file)) return undefined;
  const read = fs.readMethodFile(file);
  if (!read.ok) throw new CommandError(`${file} ${read.message}.`);
  if ('fault' in read && read.fault.kind === 'not_utf8') throw new CommandError(`${file} ${read.fault.message.replace(/^the file /, '')}.`);
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    throw new CommandError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(value)) throw new CommandError(`${file} must hold an object: input name -> { "concept": ..., "content": ... }.`);
  return value as Record<string, RunInput>;
}

async function run(ctx: RunnerCommandContext, args: RunArgs, route: 'execute' | 'start'): Promise<CommandAnswer> {
  const method = methodOf(ctx, args.uri);
  const pipeCode = pipeToRun(method, args);
  const inputs = inputsOf(ctx.session.fs, method, args);
  const request: RunRequest = { pipe_code: pipeCode, mthds_contents: method.contents, mthds_sources: method.sources };
  if (inputs) request.inputs = inputs;
  const linked = await ctx.link.connect();
  if (route === 'start') {
    const { value } = unwrap(linked, await linked.client.start(request));
    show(ctx, MessageType.Info, `Run of ${pipeCode} started: pipeline_run_id ${value.pipeline_run_id}.`);
    // The command answers now; the run is followed in the background until it ends.
    void followRun(
      {
        connection: ctx.connection,
        client: linked.client,
        runnerUrl: linked.url,
        canShowProgress: ctx.canShowProgress?.() ?? false,
        canShowDocument: ctx.canShowDocument(),
        ...(ctx.saveRunOutput ? { writeOutput: ctx.saveRunOutput } : {}),
        ...(ctx.followIntervalMs !== undefined ? { intervalMs: ctx.followIntervalMs } : {}),
      },
      value.pipeline_run_id,
      pipeCode,
    );
    return { ok: true, pipe: pipeCode, pipeline_run_id: value.pipeline_run_id };
  }
  const { value, status } = unwrap(linked, await linked.client.execute(request));
  if (status === 202 || !('pipe_output' in value)) {
    show(ctx, MessageType.Info, `The runner accepted the run of ${pipeCode} without waiting for it: pipeline_run_id ${value.pipeline_run_id || '(not given)'}.`);
    return { ok: true, pipe: pipeCode, pipeline_run_id: value.pipeline_run_id, accepted: true };
  }
  const output = value.pipe_output;
  const outputUri = ctx.saveRunOutput?.(pipeCode, value.pipeline_run_id, output);
  if (outputUri === undefined) {
    // Nowhere to save it (a browser): the answer carries the output, which the client shows.
    show(ctx, MessageType.Info, `Run of ${pipeCode} done.`);
    return { ok: true, pipe: pipeCode, pipeline_run_id: value.pipeline_run_id, pipe_output: output };
  }
  if (ctx.canShowDocument()) {
    await ctx.connection.window.showDocument({ uri: outputUri, takeFocus: true }).catch(() => undefined);
  } else {
    show(ctx, MessageType.Info, `Run of ${pipeCode} done: its output is in ${outputUri}.`);
  }
  return { ok: true, pipe: pipeCode, pipeline_run_id: value.pipeline_run_id, pipe_output: output, outputUri };
}
