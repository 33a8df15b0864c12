// Wire types of the MTHDS protocol 0.6.0 routes, as a client sees them: the protocol members
// typed, everything extension-open (runners may add members; a client must not reject them).
// The extension members this toolkit's runner understands are typed too, marked as such.

/** A stuff on the wire: the concept as a reference string, or the full object some runners dump. */
export interface WireStuff {
  concept: string | { code: string; domain_code?: string; description?: string; structure_class_name?: string; refines?: string | null; [ext: string]: unknown };
  content: unknown;
  stuff_code?: string;
  stuff_name?: string;
  [ext: string]: unknown;
}

export interface WorkingMemoryWire {
  root: Record<string, WireStuff>;
  aliases: Record<string, string>;
  [ext: string]: unknown;
}

export interface RunInput {
  concept: string;
  content: unknown;
}

export interface RunRequest {
  pipe_code?: string | null;
  mthds_contents?: string[] | null;
  inputs?: Record<string, RunInput> | null;
  output_name?: string | null;
  output_multiplicity?: boolean | number | null;
  dynamic_output_concept_ref?: string | null;
  /** Extension: a name per item of mthds_contents (errors name these files). */
  mthds_sources?: string[];
  /** Extension: a package tree, relative path -> text (instead of mthds_contents). */
  files?: Record<string, string>;
  /** Extension (/start): where the outcome of the run is POSTed. */
  callback_url?: string;
  [ext: string]: unknown;
}

export interface RunResultExecute {
  pipeline_run_id: string;
  pipe_output: { working_memory?: WorkingMemoryWire; [ext: string]: unknown };
  state?: string;
  created_at?: string;
  finished_at?: string | null;
  main_stuff_name?: string;
  [ext: string]: unknown;
}

export interface RunResultStart {
  pipeline_run_id: string;
  [ext: string]: unknown;
}

/** GET /runs/{id}/status (the run lifecycle extension the hosted API and mthds-js follow). */
export interface RunRead {
  pipeline_run_id: string;
  pipe_code?: string | null;
  status: string;
  created_at: string;
  finished_at?: string | null;
  degraded: boolean;
  [ext: string]: unknown;
}

/** GET /runs/{id}/results: 200 when completed (`main_stuff ?? pipe_output`); 202 while running. */
export interface RunResults {
  pipeline_run_id: string;
  main_stuff?: unknown;
  pipe_output?: unknown;
  graph_spec?: unknown;
  [ext: string]: unknown;
}

/**
 * The language server's notification while it follows a run it started (mthds.runner.start): one
 * per change of status, the last one with the written output of a completed run.
 */
export const RUN_STATUS_NOTIFICATION = 'mthds/runStatus';

/** The statuses after which a run changes no more (the server follows a run until one, the client shows it ended). */
export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT']);

export interface RunStatusParams {
  pipeline_run_id: string;
  pipe: string;
  status: string;
  attempts?: number;
  degraded?: boolean;
  /** The written output of a completed run. */
  outputUri?: string;
  /** Why a run ended without a result, or why it cannot be followed. */
  message?: string;
}

export interface ValidateRequest {
  mthds_contents: string[];
  allow_signatures?: boolean;
  /** Extension: a name per item of mthds_contents. */
  mthds_sources?: string[];
  [ext: string]: unknown;
}

export interface ValidationErrorWire {
  category: string;
  message: string;
  /** Locators this toolkit's runner adds (registry code, caller's file name, 1-based position). */
  code?: string;
  file?: string;
  line?: number;
  column?: number;
  end_line?: number;
  end_column?: number;
  pipe?: string;
  concept?: string;
  field?: string;
  params?: Record<string, unknown>;
  /** Locators of the reference runner. */
  source?: string;
  pipe_code?: string;
  concept_code?: string;
  domain_code?: string;
  field_path?: string;
  [ext: string]: unknown;
}

export interface ValidationReport {
  is_valid: true;
  is_runnable: boolean;
  pending_signatures: string[];
  [ext: string]: unknown;
}

export interface InvalidValidationReport {
  is_valid: false;
  validation_errors: ValidationErrorWire[];
  is_runnable: false;
  pending_signatures?: string[];
  message?: string;
  [ext: string]: unknown;
}

export type ValidationResult = ValidationReport | InvalidValidationReport;

export interface ModelEntry {
  name: string;
  /** llm, extract, img_gen or search; a client keeps entries of categories it does not know. */
  type: string;
  [ext: string]: unknown;
}

export interface ModelDeck {
  models: ModelEntry[];
  [ext: string]: unknown;
}

export type ModelType = 'llm' | 'extract' | 'img_gen' | 'search';

export interface VersionInfo {
  protocol_version: string;
  runner_version?: string | null;
  blob_store?: boolean;
  [ext: string]: unknown;
}

/** An RFC 7807 problem as received; every member optional (runners differ in what they send). */
export interface ProblemDocumentLike {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  /** The registry code (this toolkit's runner), when the runner sends one. */
  code?: string;
  params?: Record<string, unknown>;
  errors?: Array<Record<string, unknown>>;
  request_id?: string;
  retry_after?: number;
  [ext: string]: unknown;
}
