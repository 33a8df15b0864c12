// The /validate verdict, as a function: the runner's route and the language server both call it.
//
// A verdict is built from the checker's findings over the submitted texts (errors make it invalid,
// warnings ride the valid arm), the runnability facts (pending signatures) and the input form of
// the selected pipe. The dry run, written separately, plugs in through `ValidateOptions.dryRun`:
// it runs after the static checks pass and its faults join the invalid arm (category dry_run).

import path from 'node:path';
import { checkTree, type Finding } from '../check/index.js';
import { pendingSignatures } from '../check/rules/signatures.js';
import { ConceptCatalog } from '../language/jsonSchema.js';
import { inputFormOf, type FormField, type InputForm } from '../language/pipeIo.js';
import type { Bundle } from '../language/model.js';
import type { MethodTree } from '../language/tree.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import { checkEnvironment, type FunctionCatalog } from '../check/rules/functions.js';
import { loadMethod, methodFileText, qualifiedPipeRef, selectedPipe, type LoadableSource, type LoadedMethod, type LoadOptions } from './method.js';

export type ValidationCategory = 'blueprint_validation' | 'pipe_factory' | 'pipe_validation' | 'dry_run';

/** One diagnostic of a verdict. Locators that do not apply are left out, never null. */
export interface ValidationErrorItem {
  category: ValidationCategory;
  message: string;
  /** The registry code. */
  code: string;
  severity: 'error' | 'warning';
  /** The caller's name of the file: its mthds_sources entry, its files key, or mthds_contents[i]. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, UTF-16 code units. */
  column: number;
  end_line: number;
  end_column: number;
  pipe?: string;
  concept?: string;
  field?: string;
  params: Record<string, unknown>;
  // Locators of the reference runner, which existing editors read.
  source?: string;
  domain_code?: string;
  pipe_code?: string;
  concept_code?: string;
  field_path?: string;
}

/** The input-form descriptor's node (language/pipeIo.ts). */
export type InputFormField = FormField;

export type { InputForm };

export interface ValidVerdict {
  is_valid: true;
  is_runnable: boolean;
  pending_signatures: string[];
  warnings: ValidationErrorItem[];
  input_form?: InputForm;
  message: string;
  [extension: string]: unknown;
}

export interface InvalidVerdict {
  is_valid: false;
  validation_errors: ValidationErrorItem[];
  is_runnable: false;
  pending_signatures: string[];
  warnings: ValidationErrorItem[];
  message: string;
}

export type ValidationVerdict = ValidVerdict | InvalidVerdict;

/** What the dry run receives: a tree that passed the static checks. */
export interface DryRunInput {
  tree: MethodTree;
  catalog: ConceptCatalog;
  allowSignatures: boolean;
  /** Turns a located finding of the dry run into a verdict item (file names, lines, locators). */
  toItem(finding: Finding, category?: ValidationCategory): ValidationErrorItem;
}

export interface DryRunOutcome {
  /** Faults; any makes the verdict invalid. */
  errors: ValidationErrorItem[];
  /** Advisory items for the valid arm. */
  warnings?: ValidationErrorItem[];
  /** Artifacts added to the valid arm (validated_pipes, ...). */
  extensions?: Record<string, unknown>;
}

/** THE HOOK for the dry run (language reference §10): plugged in by whoever constructs the runner. */
export type DryRunHook = (input: DryRunInput) => DryRunOutcome | Promise<DryRunOutcome>;

/** With the loading options of runner/method.ts: the store, libraries and host structures. */
export interface ValidateOptions extends LoadOptions {
  allowSignatures?: boolean;
  /** Pipe whose input form to report; default: the main pipe the method declares. */
  pipeCode?: string;
  dryRun?: DryRunHook;
  /**
   * The function registry of the runtime: with it, the environment check runs (PipeFunc functions,
   * requirements.txt; check/rules/functions.ts) and its faults join the static ones.
   */
  functions?: FunctionCatalog;
}

const BLUEPRINT = new Set([
  'method.syntax',
  'method.schema_violation',
  'method.identifier_invalid',
  'method.pipe_type_invalid',
  'method.name_conflict',
  'method.concept_invalid',
  'method.model_setting_invalid',
  'method.package_invalid',
  'method.resource_missing',
  'method.dependency_missing',
  'method.dependency_invalid',
  'method.hint_invalid',
]);

function categoryOf(code: string): ValidationCategory {
  if (BLUEPRINT.has(code)) return 'blueprint_validation';
  if (code === 'method.concept_unresolved') return 'pipe_factory';
  return 'pipe_validation';
}

/** Turns findings into verdict items; one instance per loaded method (it indexes the bundles). */
export class FindingLocator {
  private readonly bundles = new Map<string, Bundle>();

  constructor(private readonly method: LoadedMethod) {
    for (const b of method.tree.bundles) this.bundles.set(b.file, b);
  }

  /** Line starts of a file of the request that is neither a bundle nor the manifest (requirements.txt). */
  private otherLineStarts(file: string): number[] | undefined {
    const prefix = `${this.method.tree.root}/`;
    const text = file.startsWith(prefix) ? this.method.otherFiles?.get(file.slice(prefix.length)) : undefined;
    return text === undefined ? undefined : computeLineStarts(text);
  }

  /**
   * The file as the caller knows it; a file the caller never named (a linked file of an installed
   * package, a file of a dependency) by its path inside the tree, else by its name alone: an
   * answer never shows where the runner keeps its files.
   */
  private publicName(file: string): string {
    const named = this.method.names.get(file);
    if (named !== undefined) return named;
    const rel = path.relative(this.method.tree.root, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : path.basename(file);
  }

  item(finding: Finding, category: ValidationCategory = categoryOf(finding.code)): ValidationErrorItem {
    const bundle = this.bundles.get(finding.file);
    const doc = bundle?.doc ?? (this.method.tree.manifest?.file === finding.file ? this.method.tree.manifest.doc : undefined);
    const lineStarts = doc?.lineStarts ?? this.otherLineStarts(finding.file);
    const start = lineStarts ? offsetToPosition(lineStarts, finding.range.start) : { line: 0, character: 0 };
    const end = lineStarts ? offsetToPosition(lineStarts, finding.range.end) : start;
    const item: ValidationErrorItem = {
      category,
      message: finding.message,
      code: finding.code,
      severity: finding.severity === 'warning' ? 'warning' : 'error',
      file: this.publicName(finding.file),
      line: start.line + 1,
      column: start.character + 1,
      end_line: end.line + 1,
      end_column: end.character + 1,
      params: { ...finding.params },
    };
    const source = this.method.sources.get(finding.file);
    if (source !== undefined) item.source = source;
    if (bundle) {
      const domain = bundle.domain?.value;
      if (domain !== undefined) item.domain_code = domain;
      const pipe = bundle.pipes.find((p) => within(finding.range, p.range));
      const concept = pipe ? undefined : bundle.concepts.find((c) => within(finding.range, c.range));
      if (pipe) item.pipe = item.pipe_code = pipe.code;
      if (concept) item.concept = item.concept_code = concept.code;
    }
    const fieldPath = finding.params['field_path'] ?? finding.params['field'];
    if (typeof fieldPath === 'string') {
      item.field = fieldPath;
      item.field_path = fieldPath;
    }
    return item;
  }
}

function within(inner: { start: number; end: number }, outer: { start: number; end: number }): boolean {
  return inner.start >= outer.start && inner.start <= outer.end;
}

/** Namespaced refs of signatures that no implementation of the same code and domain replaces. */
export { pendingSignatures };

/** Validates bundle texts (or a files tree); never throws for anything the texts hold. */
export async function validateContents(source: LoadableSource, options: ValidateOptions = {}): Promise<ValidationVerdict> {
  return validateMethod(loadMethod(source, options), options);
}

/** Validates an already loaded method (the language server builds its own trees). */
export async function validateMethod(method: LoadedMethod, options: ValidateOptions = {}): Promise<ValidationVerdict> {
  const locator = new FindingLocator(method);
  const findings = [...method.findings, ...checkTree(method.tree)];
  if (options.functions) findings.push(...checkEnvironment(method.tree, options.functions, (rel) => methodFileText(method, rel)));
  const errors = findings.filter((f) => f.severity === 'error').map((f) => locator.item(f));
  const warnings = findings.filter((f) => f.severity !== 'error').map((f) => locator.item(f));
  const pending = pendingSignatures(method.tree);
  if (method.tree.bundles.length === 0) {
    errors.push({
      category: 'blueprint_validation',
      message: 'The request holds no bundle (.mthds) to validate.',
      code: 'method.package_invalid',
      severity: 'error',
      file: '(request)',
      line: 1,
      column: 1,
      end_line: 1,
      end_column: 1,
      params: { reason: 'no_source' },
    });
  }
  if (errors.length > 0) return invalid(errors, warnings, pending);

  const catalog = new ConceptCatalog(method.tree);
  let extensions: Record<string, unknown> = {};
  if (options.dryRun) {
    const outcome = await options.dryRun({
      tree: method.tree,
      catalog,
      allowSignatures: options.allowSignatures === true,
      toItem: (finding, category) => locator.item(finding, category ?? 'dry_run'),
    });
    if (outcome.errors.length > 0) return invalid(outcome.errors, [...warnings, ...(outcome.warnings ?? [])], pending);
    warnings.push(...(outcome.warnings ?? []));
    extensions = outcome.extensions ?? {};
  }
  // The extensions first, as readers of the JSON know the answer (Object.assign: a spread followed by members is V8's slow path).
  const verdict: ValidVerdict = Object.assign({}, extensions, {
    is_valid: true as const,
    is_runnable: pending.length === 0,
    pending_signatures: pending,
    warnings,
    message: pending.length === 0 ? 'MTHDS content validated successfully' : `MTHDS content validated successfully; ${pending.length} pipe signature(s) await an implementation`,
  });
  const form = inputForm(method.tree, catalog, options.pipeCode);
  if (form) verdict.input_form = form;
  return verdict;
}

function invalid(errors: ValidationErrorItem[], warnings: ValidationErrorItem[], pending: string[]): InvalidVerdict {
  const first = errors.slice(0, 3).map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`);
  return {
    is_valid: false,
    validation_errors: errors,
    is_runnable: false,
    pending_signatures: pending,
    warnings,
    message: `Validation error(s): ${errors.length}. ${first.join(' | ')}${errors.length > 3 ? ' | ...' : ''}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Input form (the MTHDS input-form descriptor, keyed by the pipe's namespaced ref)

export function inputForm(tree: MethodTree, catalog: ConceptCatalog, pipeCode?: string): InputForm | undefined {
  const pipe = selectedPipe(tree, pipeCode);
  return pipe ? { [qualifiedPipeRef(pipe)]: inputFormOf(catalog, pipe) } : undefined;
}
