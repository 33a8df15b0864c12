// The tools of `mthds mcp`: check, fix, format, graph, explain, pipe_io and run. Each answers a
// short text summary and `structuredContent` matching its output schema; a bad argument (a path
// that does not exist, an unknown code or pipe) is a tool error with a clear message, never a
// failure of the server. Every tool runs the code of the command line it mirrors.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/server';
import { applyEdits } from '../../check/applyFixes.js';
import { ConceptCatalog } from '../../language/jsonSchema.js';
import type { PipeDecl } from '../../language/model.js';
import { describedPipes, pipeIoArtifacts, pipeIoLines, pipeRefOf } from '../../language/pipeIo.js';
import type { MethodTree } from '../../language/tree.js';
import { getEntry, allEntries, codeDocumentationUrl, exampleMarkdown, exampleOf, noExampleReason } from '../../registry/index.js';
import { selectedPipe } from '../../runner/method.js';
import { computeLineStarts, positionToOffset } from '../../syntax/positions.js';
import { suggest } from '../../util/suggest.js';
import { PackageCache, resolveDependencies } from '../../workspace/dependencies.js';
import { isDirectory } from '../../workspace/discover.js';
import { loadTree, planTrees, type TreePlan } from '../../workspace/load.js';
import { runCheck } from '../check.js';
import { fixTrees } from '../checkFix.js';
import { runFormat } from '../format.js';
import { runGraph } from '../graph.js';
import { captured, problemLines } from './commandOutput.js';
import type { MethodRunner } from './runner.js';
import { nodeFileSystem } from '../../workspace/nodeFileSystem.js';

export interface ToolContext {
  /** The folder paths are relative to (the server's working folder). */
  root: string;
  runner: MethodRunner;
}

type ToolResult = { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

class ToolError extends Error {}

function answer(summary: string, structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: structured };
}

function failure(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** A tool body whose ToolError (and any other failure) becomes a tool error. */
function guarded<A>(body: (args: A) => Promise<ToolResult> | ToolResult): (args: A) => Promise<ToolResult> {
  return async (args) => {
    try {
      return await body(args);
    } catch (error) {
      return failure(error instanceof ToolError ? error.message : `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

function resolveIn(ctx: ToolContext, given: string): string {
  return path.resolve(ctx.root, given);
}

function existingPaths(ctx: ToolContext, paths: readonly string[] | undefined): string[] {
  const list = paths && paths.length > 0 ? paths : ['.'];
  for (const p of list) if (!existsSync(resolveIn(ctx, p))) throw new ToolError(`No such file or folder: ${p} (paths are relative to ${ctx.root}).`);
  return list.map((p) => resolveIn(ctx, p));
}

// ---------------------------------------------------------------------------------------------
// Schemas

const position = z.object({ line: z.number().int(), character: z.number().int() });
const range = z.object({ start: position, end: position });
const fileEdit = z.object({ file: z.string(), range, newText: z.string() });
const fixShape = z.object({ title: z.string(), safe: z.boolean(), edits: z.array(fileEdit) });
const finding = z.looseObject({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
  severity: z.string(),
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.unknown()),
  range,
  fix: fixShape.optional(),
  alternatives: z.array(fixShape).optional(),
});
const report = { files: z.number().int(), errors: z.number().int(), warnings: z.number().int(), findings: z.array(finding) };
const fixRecord = z.object({ file: z.string(), line: z.number().int(), column: z.number().int(), code: z.string(), title: z.string(), edits: z.array(z.object({ range, newText: z.string() })).optional() });
const formNode = z.record(z.string(), z.unknown());

// ---------------------------------------------------------------------------------------------
// check

const FINDING_HELP =
  'Each finding has file, 1-based line/column, a 0-based LSP range, severity, a registry code (explain it with the explain tool), message, params, and when the fault has one, fix: {title, safe, edits[{file, range, newText}]} (apply the edits, or call the fix tool), or alternatives.';

async function checkReport(ctx: ToolContext, paths: string[], buffers?: Map<string, string>): Promise<Record<string, unknown>> {
  const out = await captured(runCheck, ['--format', 'json', ...paths], buffers ? { buffers } : {});
  if (!out.stdout.trim().startsWith('{')) throw new ToolError(problemLines(out.stderr).join('\n') || 'Nothing could be checked.');
  const parsed = JSON.parse(out.stdout) as Record<string, unknown>;
  const problems = problemLines(out.stderr);
  return problems.length > 0 ? Object.assign(parsed, { problems }) : parsed;
}

function summary(r: Record<string, unknown>): string {
  const findings = r['findings'] as Array<{ file: string; line: number; column: number; severity: string; code: string; message: string }>;
  const head = `${String(r['errors'])} error(s), ${String(r['warnings'])} warning(s) in ${String(r['files'])} file(s).`;
  const lines = findings.slice(0, 20).map((f) => `${f.file}:${f.line}:${f.column}: ${f.severity} ${f.code} ${f.message}`);
  return [head, ...lines, ...(findings.length > 20 ? [`... ${findings.length - 20} more in structuredContent.findings`] : [])].join('\n');
}

function registerCheck(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'check',
    {
      title: 'Check MTHDS methods',
      description: `Checks .mthds bundles and METHODS.toml packages with the editor's rules, then dry-runs what checks clean (mock models), exactly as \`mthds check --format json\`. paths: files or folders relative to the server's root (default: the root); a file is checked within its package. files: unsaved texts {path, text} that win over the disk (new files below a checked folder join it). ${FINDING_HELP}`,
      inputSchema: z.object({
        paths: z.array(z.string()).optional().describe('Files or folders to check (default: the root).'),
        files: z.array(z.object({ path: z.string(), text: z.string() })).optional().describe('Unsaved buffers: they replace the file of the same path.'),
      }),
      outputSchema: z.looseObject(report),
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ paths, files }) => {
      const buffers = files && files.length > 0 ? new Map(files.map((f) => [resolveIn(ctx, f.path), f.text])) : undefined;
      const list = paths && paths.length > 0 ? existingPaths(ctx, paths) : [ctx.root];
      const r = await checkReport(ctx, list, buffers);
      return answer(summary(r), r);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// fix

/** The texts the fixes would give, as buffers (a dry run's findings left are checked on them). */
function fixedTexts(fixed: ReadonlyArray<{ file: string; edits?: Array<{ range: z.infer<typeof range>; newText: string }> }>): Map<string, string> {
  const byFile = new Map<string, Array<{ range: z.infer<typeof range>; newText: string }>>();
  for (const f of fixed) byFile.set(f.file, [...(byFile.get(f.file) ?? []), ...(f.edits ?? [])]);
  const out = new Map<string, string>();
  for (const [file, edits] of byFile) {
    const text = readFileSync(file, 'utf8');
    const starts = computeLineStarts(text);
    out.set(file, applyEdits(text, edits.map((e) => ({ file, range: { start: positionToOffset(starts, text, e.range.start), end: positionToOffset(starts, text, e.range.end) }, newText: e.newText }))));
  }
  return out;
}

function loaderFor(paths: readonly string[]): (plan: TreePlan) => MethodTree {
  const options = { fs: nodeFileSystem, cache: new PackageCache(), workspace: [...new Set(paths.filter((p) => isDirectory(nodeFileSystem, p)))] };
  return (plan) => {
    const loaded = loadTree(nodeFileSystem, plan);
    resolveDependencies(loaded.tree, options);
    return loaded.tree;
  };
}

function registerFix(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'fix',
    {
      title: 'Apply the safe fixes',
      description:
        "Applies the safe fix of each finding, the verified fix-all of `mthds check --fix` and the editor: fixes that overlap are left out, each fix is re-checked in memory and rolled back if it brings a new error, files are written only if unchanged since read (at most three passes). paths: files or folders (default: the root). codes: only the fixes of these registry codes. dry_run: write nothing and report the fixes that would be made. Answers the fixes (file, 1-based line/column, code, title, edits with 0-based ranges), those rolled back, and the findings left afterwards (the same members as the check tool's).",
      inputSchema: z.object({
        paths: z.array(z.string()).optional(),
        codes: z.array(z.string()).optional().describe('Registry codes whose fixes to apply (default: all).'),
        dry_run: z.boolean().optional(),
      }),
      outputSchema: z.looseObject({ dry_run: z.boolean(), fixed: z.array(fixRecord), rolled_back: z.array(z.looseObject({ code: z.string(), title: z.string() })), ...report }),
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    guarded(async ({ paths, codes, dry_run }) => {
      const list = existingPaths(ctx, paths);
      for (const code of codes ?? []) if (!getEntry(code)) throw new ToolError(unknownCode(code));
      const { plans, problems } = planTrees(nodeFileSystem, list);
      if (plans.length === 0) throw new ToolError(problems.map((p) => `${p.path}: ${p.message}`).join('\n') || 'Nothing to fix.');
      const dryRun = dry_run === true;
      const outcome = fixTrees(plans, loaderFor(list), Object.assign({ dryRun, recordEdits: true }, codes ? { codes: new Set(codes) } : {}));
      const left = await checkReport(ctx, list, dryRun ? fixedTexts(outcome.fixed) : undefined);
      const rel = (file: string): string => path.relative(ctx.root, file).split(path.sep).join('/') || file;
      const structured = Object.assign(
        {
          dry_run: dryRun,
          fixed: outcome.fixed.map((f) => Object.assign({}, f, { file: rel(f.file) })),
          rolled_back: outcome.rolledBack.map((f) => Object.assign({}, f, { file: rel(f.file) })),
          not_written: outcome.failures.map((f) => ({ file: rel(f.file), message: f.message })),
        },
        left,
      );
      const verb = dryRun ? 'would fix' : 'fixed';
      const lines = outcome.fixed.map((f) => `${verb} ${rel(f.file)}:${f.line}:${f.column}: ${f.code} ${f.title}`);
      return answer([`${outcome.fixed.length} fix(es) ${dryRun ? 'would be made' : 'made'}.`, ...lines, summary(left)].join('\n'), structured);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// format, graph

function registerFormat(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'format',
    {
      title: 'Format MTHDS files',
      description: 'Formats bundles and manifests in place, as `mthds format` (aligned `=`, normalized spacing; comments and key order kept; a file whose meaning would change is left alone). paths: files or folders (default: the root). dry_run: write nothing, list the files that would change.',
      inputSchema: z.object({ paths: z.array(z.string()).optional(), dry_run: z.boolean().optional() }),
      outputSchema: z.object({ dry_run: z.boolean(), changed: z.array(z.string()), problems: z.array(z.string()) }),
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    guarded(async ({ paths, dry_run }) => {
      const dryRun = dry_run === true;
      const list = existingPaths(ctx, paths);
      const out = await captured(runFormat, [...(dryRun ? ['--check'] : []), ...list], undefined);
      const changed = out.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.replace(/^formatted /, ''))
        .map((f) => path.relative(ctx.root, path.resolve(f)).split(path.sep).join('/'));
      const problems = problemLines(out.stderr).filter((l) => !/would be reformatted$/.test(l));
      if (out.status === 2 && changed.length === 0 && problems.some((p) => /no method files found|no such file/.test(p))) throw new ToolError(problems.join('\n'));
      const head = changed.length === 0 ? 'Nothing to format.' : `${changed.length} file(s) ${dryRun ? 'would be reformatted' : 'formatted'}: ${changed.join(', ')}`;
      return answer([head, ...problems].join('\n'), { dry_run: dryRun, changed, problems });
    }),
  );
}

function registerGraph(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'graph',
    {
      title: 'Method graph',
      description: "The method graph of a bundle or package, as `mthds graph`: pipes as nodes, controllers' calls (steps, branches, outcomes, batches) as edges with the result and concept they carry. format: mermaid (default), dot, json or svg.",
      inputSchema: z.object({ path: z.string(), format: z.enum(['mermaid', 'dot', 'json', 'svg']).optional() }),
      outputSchema: z.object({ format: z.string(), text: z.string().optional(), graph: z.unknown().optional() }),
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ path: given, format }) => {
      const [file] = existingPaths(ctx, [given]);
      const f = format ?? 'mermaid';
      const out = await captured(runGraph, ['--format', f, file!], undefined);
      if (out.status !== 0) throw new ToolError(problemLines(out.stderr).join('\n') || 'No graph.');
      if (f === 'json') return answer(`The method graph of ${given} (json in structuredContent.graph).`, { format: f, graph: JSON.parse(out.stdout) as unknown });
      return answer(out.stdout, { format: f, text: out.stdout });
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// explain

function unknownCode(code: string): string {
  const near = suggest(code, allEntries().map((e) => e.code));
  return `Unknown code '${code}'.${near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ''}`;
}

function registerExplain(server: McpServer): void {
  server.registerTool(
    'explain',
    {
      title: 'Explain a finding code',
      description: 'The registry entry of a code that check, fix or a runner reports (method.concept_unresolved, request.pipe_not_found, mthdsls.*): its title, what it means and what usually causes it, its parameters, the detail template its message is made from, the advice to the caller and to others, whether a retry can succeed, its documentation anchor, and for most method codes an example: a file that raises the code (fault), the same file fixed (fixed), the files it needs beside it (context) and, when a folder check does not raise it, how it is raised (functions, run); for a code no file shows, why (no_example).',
      inputSchema: z.object({ code: z.string() }),
      outputSchema: z.looseObject({
        code: z.string(),
        title: z.string(),
        explanation: z.string(),
        severity: z.string(),
        retry: z.boolean(),
        params: z.array(z.object({ name: z.string(), type: z.string(), optional: z.boolean(), description: z.string() })),
        detail: z.string(),
        advice: z.object({ client: z.array(z.string()), others: z.array(z.string()) }),
        documentation: z.string(),
        example: z
          .object({
            summary: z.string(),
            file: z.string(),
            fault: z.string(),
            fixed: z.string(),
            context: z.array(z.object({ path: z.string(), text: z.string() })),
            functions: z.array(z.string()).optional(),
            run: z.object({ pipe: z.string(), inputs: z.record(z.string(), z.object({ concept: z.string(), content: z.unknown() })) }).optional(),
          })
          .optional(),
        no_example: z.string().optional(),
      }),
      annotations: { readOnlyHint: true },
    },
    guarded(({ code }) => {
      const entry = getEntry(code);
      if (!entry) throw new ToolError(unknownCode(code));
      const structured: Record<string, unknown> = {
        code: entry.code,
        title: entry.title,
        explanation: entry.explanation,
        severity: entry.raisedAs === 'warning' ? 'warning' : 'error',
        retry: entry.retry,
        domain: entry.domain,
        params: entry.params.map((p) => ({ name: p.name, type: p.type.kind, optional: p.optional === true, description: p.description })),
        detail: entry.detail,
        advice: { client: entry.advice.client.map((a) => a.text), others: entry.advice.others.map((a) => a.text) },
        documentation: codeDocumentationUrl(entry.code),
      };
      if (entry.status !== undefined) structured['status'] = entry.status;
      const example = exampleOf(entry.code);
      if (example) {
        const shown: Record<string, unknown> = { summary: example.summary, file: example.file, fault: example.fault, fixed: example.fixed, context: (example.context ?? []).map((f) => ({ ...f })) };
        // How the fault is raised when a folder check does not raise it: the same members as the registry's.
        if (example.functions) shown['functions'] = [...example.functions];
        if (example.run) shown['run'] = { pipe: example.run.pipe, inputs: { ...example.run.inputs } };
        structured['example'] = shown;
      }
      const advice = [...entry.advice.client, ...entry.advice.others].map((a) => `- ${a.text}`);
      const lines = [`${entry.code}: ${entry.title}`, entry.explanation, ...(advice.length > 0 ? ['Advice:', ...advice] : [])];
      if (example) lines.push('', ...exampleMarkdown(example));
      const reason = example ? undefined : noExampleReason(entry.code);
      if (reason !== undefined) {
        structured['no_example'] = reason;
        lines.push('', `No file example: ${reason}`);
      }
      return answer(lines.join('\n').trimEnd(), structured);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// pipe_io and run: one method tree from a path

interface LoadedPath {
  tree: MethodTree;
  /** The bundle file named, when a file was named. */
  file?: string;
}

function loadPath(ctx: ToolContext, given: string): LoadedPath {
  const [abs] = existingPaths(ctx, [given]);
  const { plans, problems } = planTrees(nodeFileSystem, [abs!]);
  const plan = plans[0];
  if (!plan) throw new ToolError(problems.map((p) => `${p.path}: ${p.message}`).join('\n') || `No method at ${given}.`);
  const tree = loaderFor([abs!])(plan);
  if (tree.bundles.length === 0) throw new ToolError(`${given} holds no method bundle (.mthds).`);
  return isDirectory(nodeFileSystem, abs!) ? { tree } : { tree, file: abs! };
}

/** The pipe named (bare code or domain.code), else the bundle's or method's main pipe. */
function pickPipe(loaded: LoadedPath, pipe: string | undefined): PipeDecl | undefined {
  const pipes = describedPipes(loaded.tree);
  if (pipe !== undefined) {
    const found = pipes.filter((p) => pipeRefOf(p) === pipe || p.code === pipe);
    if (found.length === 1) return found[0];
    const refs = pipes.map(pipeRefOf);
    if (found.length > 1) throw new ToolError(`The pipe '${pipe}' is declared in several domains: ${found.map(pipeRefOf).join(', ')}. Name it as domain.pipe_code.`);
    const near = suggest(pipe, refs);
    throw new ToolError(`No pipe '${pipe}' in ${loaded.tree.root}.${near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ` Pipes: ${refs.slice(0, 30).join(', ')}.`}`);
  }
  const bundle = loaded.file !== undefined ? loaded.tree.bundles.find((b) => b.file === loaded.file) : undefined;
  const main = bundle?.mainPipe?.value;
  if (bundle && main) return pipes.find((p) => p.bundle.domain?.value === bundle.domain?.value && p.code === main);
  return selectedPipe(loaded.tree, undefined);
}

function registerPipeIo(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'pipe_io',
    {
      title: 'What a pipe takes and gives',
      description:
        "What a pipe takes and gives, as the MTHDS standard describes it, without running anything: pipe_io_contracts (per input: concept_ref, presence plain|optional|force, multiplicity single|variable|fixed, item_count, json_schema of the content; the output: concept_ref, multiplicity, item_count, optional), input_form (the inputs in authored order as field nodes: kind text|prose|date|number|boolean|enum|document|image|object|list|unknown, required, gating, nested fields) and output_form. path: a bundle or package. pipe: a pipe code or domain.pipe_code (default: the main pipe; with none, every pipe). Use it to build the inputs of the run tool.",
      inputSchema: z.object({ path: z.string(), pipe: z.string().optional() }),
      outputSchema: z.object({ pipe_ref: z.string().nullable(), pipe_io_contracts: z.record(z.string(), formNode), input_form: z.record(z.string(), formNode), output_form: z.record(z.string(), formNode) }),
      annotations: { readOnlyHint: true },
    },
    guarded(({ path: given, pipe }) => {
      const loaded = loadPath(ctx, given);
      const chosen = pickPipe(loaded, pipe);
      const pipes = chosen ? [chosen] : describedPipes(loaded.tree).filter((p) => loaded.file === undefined || p.bundle.file === loaded.file);
      const artifacts = pipeIoArtifacts(new ConceptCatalog(loaded.tree), pipes);
      const text = Object.keys(artifacts.pipe_io_contracts).map((ref) => {
        const c = artifacts.pipe_io_contracts[ref]!;
        const lines = pipeIoLines(artifacts.input_form[ref]!);
        return [`${ref} -> ${c.output.concept_ref}${c.output.multiplicity === 'single' ? '' : '[]'}`, ...(lines.length > 0 ? lines.map((l) => `  ${l}`) : ['  (no inputs)'])].join('\n');
      });
      return answer(text.join('\n'), { pipe_ref: chosen ? pipeRefOf(chosen) : null, pipe_io_contracts: artifacts.pipe_io_contracts, input_form: artifacts.input_form, output_form: artifacts.output_form });
    }),
  );
}

function registerRun(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'run',
    {
      title: 'Run a method',
      description: `Runs a pipe of a method on the configured runner (${ctx.runner.describe()}) and returns its output, or the problem (a registry code and message). path: a bundle or package. pipe: a pipe code or domain.pipe_code (default: the main pipe). inputs: input name -> value; a value is {concept, content}, or the content alone (its concept is then the one the pipe declares: see pipe_io), e.g. {"topic": {"text": "tides"}}.`,
      inputSchema: z.object({ path: z.string(), pipe: z.string().optional(), inputs: z.record(z.string(), z.unknown()).describe('Input name -> value ({} for a pipe that takes none).') }),
      outputSchema: z.looseObject({ pipe_ref: z.string(), pipeline_run_id: z.string(), pipe_output: z.unknown() }),
      annotations: { openWorldHint: true },
    },
    guarded(async ({ path: given, pipe, inputs }) => {
      const loaded = loadPath(ctx, given);
      const chosen = pickPipe(loaded, pipe);
      if (!chosen) throw new ToolError(`No pipe to run in ${given}: name one (pipe), or declare a main_pipe.`);
      const ref = pipeRefOf(chosen);
      const contract = pipeIoArtifacts(new ConceptCatalog(loaded.tree), [chosen]).pipe_io_contracts[ref]!;
      const wire: Record<string, { concept: string; content: unknown }> = {};
      for (const [name, value] of Object.entries(inputs)) {
        const declared = contract.inputs[name];
        if (!declared) throw new ToolError(`The pipe ${ref} takes no input '${name}'. It takes: ${Object.keys(contract.inputs).join(', ') || 'nothing'}.`);
        const explicit = typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['concept'] === 'string' && 'content' in value;
        wire[name] = explicit ? (value as { concept: string; content: unknown }) : { concept: declared.concept_ref, content: value };
      }
      const outcome = await ctx.runner.execute(loaded.tree, ref, wire);
      if (!outcome.ok) throw new ToolError(outcome.message);
      const structured = { pipe_ref: ref, pipeline_run_id: outcome.runId, pipe_output: outcome.output };
      return answer(`Run of ${ref} done (${outcome.runId}).\n${JSON.stringify(outcome.output, null, 2).slice(0, 4000)}`, structured);
    }),
  );
}

/** Registers exactly the tools of `mthds mcp`. */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  registerCheck(server, ctx);
  registerFix(server, ctx);
  registerFormat(server, ctx);
  registerGraph(server, ctx);
  registerExplain(server);
  registerPipeIo(server, ctx);
  registerRun(server, ctx);
}
