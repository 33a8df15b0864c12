// POST /pipe-io, an extension route with the reference runner's shape: a method's three I/O
// artifacts (pipe I/O contracts, input form, output form) for the selected pipe or every pipe,
// with the selection and runnability facts beside them. No dry run: `is_valid` says the method
// passed the static checks, never that it runs. An invalid method is a verdict on a 200 (the
// invalid arm of /validate); a selection that cannot be made is a problem (request.pipe_*).
//
// The method comes as `files` (the reference's list of `{content, source}`, or this runner's map
// of relative paths to texts), `mthds_contents` (with `mthds_sources`) or `method_ref`.

import { ConceptCatalog } from '../language/jsonSchema.js';
import type { PipeDecl } from '../language/model.js';
import { describedPipes, pipeIoArtifacts, pipeRefOf, type PipeIoArtifacts } from '../language/pipeIo.js';
import type { ResolvedConfig } from './config.js';
import type { LoadedMethod, MethodSource } from './method.js';
import { selectedPipe, selectPipe } from './method.js';
import { pendingSignatures } from '../check/rules/signatures.js';
import { fieldPath, Refusal } from './refusal.js';
import { checkFiles } from './requests.js';
import { methodRefSource } from './methodRef.js';
import { validateMethod, type InvalidVerdict, type ValidateOptions } from './validate.js';

const MEMBERS = new Set(['files', 'mthds_contents', 'mthds_sources', 'method_ref', 'pipe_ref', 'all_pipes', 'include_files']);

export interface PipeIoRequest {
  method: MethodSource;
  pipeRef?: string;
  allPipes: boolean;
  includeFiles: boolean;
}

export interface FileItem {
  content: string;
  source: string | null;
}

export interface PipeIoValidReport extends PipeIoArtifacts {
  is_valid: true;
  pipe_ref: string | null;
  default_pipe_ref: string | null;
  pending_signatures: string[];
  is_runnable: boolean;
  files: FileItem[] | null;
  message: string;
}

export type PipeIoReport = PipeIoValidReport | InvalidVerdict;

function invalid(field: string, detail: string): Refusal {
  return new Refusal('request.invalid', { field }, { detail });
}

function given(body: Record<string, unknown>, key: string): boolean {
  return body[key] !== undefined && body[key] !== null;
}

function flag(body: Record<string, unknown>, key: string): boolean {
  if (!given(body, key)) return false;
  if (typeof body[key] !== 'boolean') throw invalid(key, `${key} must be true or false.`);
  return body[key];
}

/** The request, checked; every fault a refusal naming its field. */
export function parsePipeIoRequest(body: Record<string, unknown>, config: ResolvedConfig): PipeIoRequest {
  for (const key of Object.keys(body)) {
    if (!MEMBERS.has(key)) throw new Refusal('request.unsupported', { field: fieldPath(key), reason: 'extension_member' }, { detail: `The member ${fieldPath(key)} is not supported by this runner on /pipe-io.` });
  }
  const selectors = ['files', 'mthds_contents', 'method_ref'].filter((k) => given(body, k));
  if (selectors.length !== 1) throw invalid(selectors[1] ?? 'files', 'Send the method in exactly one of files, mthds_contents or method_ref.');
  let method: MethodSource;
  if (given(body, 'method_ref')) method = methodRefSource(body['method_ref'], config);
  else if (Array.isArray(body['files'])) method = contentsOfItems(body['files'], config);
  else if (given(body, 'files')) method = { kind: 'files', files: checkFiles(body['files'], config) };
  else method = contentsOf(body, config);
  const request: PipeIoRequest = { method, allPipes: flag(body, 'all_pipes'), includeFiles: flag(body, 'include_files') };
  if (given(body, 'pipe_ref')) {
    const ref = body['pipe_ref'];
    if (typeof ref !== 'string' || ref.trim() === '') throw invalid('pipe_ref', 'pipe_ref must name a pipe: domain.pipe_code.');
    request.pipeRef = ref;
  }
  return request;
}

function checkText(text: unknown, field: string, config: ResolvedConfig): string {
  if (typeof text !== 'string') throw invalid(field, `${field} must be a bundle text.`);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > config.limits.max_file_bytes) throw new Refusal('request.too_large', { limit: config.limits.max_file_bytes, size });
  return text;
}

/** The reference's `files`: a list of `{content, source?}`. */
function contentsOfItems(items: unknown[], config: ResolvedConfig): MethodSource {
  if (items.length === 0) throw invalid('files', 'files must hold at least one bundle.');
  if (items.length > config.limits.max_files) throw new Refusal('request.too_large', { limit: config.limits.max_files, size: items.length });
  const contents: string[] = [];
  const sources: string[] = [];
  items.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`files.${i}`, 'Each item of files is {content, source}.');
    const record = item as Record<string, unknown>;
    contents.push(checkText(record['content'], `files.${i}.content`, config));
    const source = record['source'];
    if (source !== undefined && source !== null && (typeof source !== 'string' || source === '' || source.length > 1024)) throw invalid(`files.${i}.source`, 'source must be a file name.');
    sources.push(typeof source === 'string' ? source : `files[${i}]`);
  });
  return { kind: 'contents', contents, sources };
}

function contentsOf(body: Record<string, unknown>, config: ResolvedConfig): MethodSource {
  const contents = body['mthds_contents'];
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('mthds_contents', 'mthds_contents must be an array of at least one bundle text.');
  if (contents.length > config.limits.max_files) throw new Refusal('request.too_large', { limit: config.limits.max_files, size: contents.length });
  const texts = contents.map((c, i) => checkText(c, `mthds_contents.${i}`, config));
  const sources = body['mthds_sources'];
  if (sources === undefined || sources === null) return { kind: 'contents', contents: texts };
  if (!Array.isArray(sources) || sources.length !== texts.length || sources.some((s) => typeof s !== 'string' || s === '')) {
    throw invalid('mthds_sources', 'mthds_sources must name each item of mthds_contents.');
  }
  return { kind: 'contents', contents: texts, sources: sources as string[] };
}

/** The report of a loaded method; throws the selection's refusal when no pipe can be chosen. */
export async function pipeIoReport(method: LoadedMethod, request: Omit<PipeIoRequest, 'method'>, options: ValidateOptions): Promise<PipeIoReport> {
  // The static verdict of /validate, without its dry run and without its input form.
  const staticOnly: ValidateOptions = Object.assign({}, options, { allowSignatures: true });
  delete staticOnly.dryRun;
  const verdict = await validateMethod(method, staticOnly);
  if (!verdict.is_valid) return verdict;
  const tree = method.tree;
  const main = selectedPipe(tree, undefined);
  let selected: PipeDecl | undefined;
  if (request.pipeRef !== undefined) selected = selectPipe(tree, request.pipeRef);
  else if (!request.allPipes) selected = selectPipe(tree, undefined);
  else selected = main;
  const pipes = request.allPipes ? describedPipes(tree) : [selected!];
  const pending = pendingSignatures(tree);
  return Object.assign(
    { is_valid: true as const, pipe_ref: selected ? pipeRefOf(selected) : null },
    pipeIoArtifacts(new ConceptCatalog(tree), pipes),
    {
      default_pipe_ref: main ? pipeRefOf(main) : null,
      pending_signatures: pending,
      is_runnable: pending.length === 0,
      files: request.includeFiles ? fileItems(method) : null,
      message: 'Pipe I/O described (static checks passed; no dry run).',
    },
  );
}

/** The method's bundles in the request's `files` shape, named as the caller named them. */
function fileItems(method: LoadedMethod): FileItem[] {
  return method.tree.bundles.map((b) => ({ content: b.doc.text, source: method.sources.get(b.file) ?? method.names.get(b.file) ?? null }));
}
