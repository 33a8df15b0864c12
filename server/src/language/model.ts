// The semantic model of MTHDS: bundles, concepts, pipes and the references between them, every
// part with its source range. Built leniently from a located TOML document: whatever is malformed
// is left out here and reported by the checks, which read the raw tables through the spec.

import type { LString, LTable, LValue, Range, TomlDocument } from '../syntax/types.js';
import type { IoRef, ParsedRef } from './references.js';
import type { PipeTypeSpec } from './spec/pipeTypes.js';

export interface Located<T> {
  value: T;
  range: Range;
}

/** Where a concept is referenced. `item_type` holds a concept reference when a list field names its item concept there (shorthand). */
export type ConceptRefContext = 'input' | 'output' | 'refines' | 'concept_ref' | 'item_concept_ref' | 'item_type';

export interface ConceptRefSite {
  context: ConceptRefContext;
  raw: string;
  node: LString;
  /** Undefined when the string does not parse (the checks report it). */
  ref?: ParsedRef;
  parseError?: { message: string; range: Range };
}

export interface IoRefSite extends ConceptRefSite {
  context: 'input' | 'output';
  io?: IoRef;
}

export type PipeRefContext = 'step' | 'branch' | 'outcome' | 'default_outcome' | 'branch_pipe_code' | 'main_pipe';

export interface PipeRefSite {
  context: PipeRefContext;
  raw: string;
  node: LString;
  ref?: ParsedRef;
  parseError?: { message: string; range: Range };
  /** `fail` / `continue` outcomes, which name no pipe. */
  special: boolean;
}

export interface StructureField {
  name: string;
  nameRange: Range;
  /** The whole `name = ...` definition. */
  range: Range;
  node: LValue;
  /** `field = "description"`: a required text field. */
  shorthand: boolean;
  description?: string;
  type?: Located<string>;
  required: boolean;
  choices?: string[];
  itemType?: Located<string>;
  keyType?: Located<string>;
  valueType?: Located<string>;
  conceptRef?: ConceptRefSite;
  itemConceptRef?: ConceptRefSite;
  defaultValue?: LValue;
  table?: LTable;
}

export interface ConceptDecl {
  bundle: Bundle;
  code: string;
  codeRange: Range;
  /** The whole declaration (the simple `Name = "..."` line, or the table). */
  range: Range;
  form: 'simple' | 'table';
  node: LValue;
  description?: Located<string>;
  refines?: ConceptRefSite;
  /** Structure fields, in order, when `structure` is a table. */
  structure?: StructureField[];
  /** `structure = "..."`: a string structure (a description, or a class name of older runtimes). */
  structureString?: Located<string>;
  hints?: LTable;
}

export interface InputDecl {
  name: string;
  nameRange: Range;
  range: Range;
  ref?: IoRefSite;
  hints?: LTable;
}

export interface StepDecl {
  node: LTable;
  index: number;
  pipe?: PipeRefSite;
  from?: Located<string>;
  result?: Located<string>;
  batchOver?: Located<string>;
  batchAs?: Located<string>;
  nbOutput?: Located<number>;
  multipleOutput?: Located<boolean>;
}

export interface PipeDecl {
  bundle: Bundle;
  code: string;
  codeRange: Range;
  range: Range;
  table: LTable;
  /** The `type` value as written, when it is a string. */
  type?: Located<string>;
  /** The pipe type's description, when `type` names a current type. */
  spec?: PipeTypeSpec;
  /** No `type` key at all: a signature (or a pipe that forgot its type). */
  typeless: boolean;
  description?: Located<string>;
  inputs: InputDecl[];
  output?: IoRefSite;
  /** Steps of a PipeSequence, or branches of a PipeParallel. */
  steps: StepDecl[];
  /** Every pipe reference this pipe makes (steps, branches, outcomes, batch branch). */
  pipeRefs: PipeRefSite[];
}

export interface Bundle {
  /** Absolute path of the file (the identity used everywhere above the syntax layer). */
  file: string;
  doc: TomlDocument;
  domain?: Located<string>;
  description?: Located<string>;
  systemPrompt?: LString;
  mainPipe?: Located<string> & { node: LString };
  concepts: ConceptDecl[];
  pipes: PipeDecl[];
}
