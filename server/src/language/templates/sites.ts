// Where a pipe holds templates: every template string of a pipe, with how it is read. One place,
// so that checks, completion and semantic tokens agree on what is a template.

import { getEntry } from '../../syntax/lookup.js';
import type { LString, LTable } from '../../syntax/types.js';
import type { PipeDecl } from '../model.js';
import type { ValueSpec } from '../spec/values.js';
import type { PipeTypeSpec } from '../spec/pipeTypes.js';

export interface TemplateSite {
  /** The field as the registry names templates: `prompt`, `template`, `construct field 'a.b'`... */
  field: string;
  node: LString;
  shorthands: boolean;
  /** A bare expression, wrapped in `{{ }}` by the runtime. */
  expression: boolean;
}

/** A `{ from = "path" }` of a construct: a direct read of working memory. */
export interface ConstructRead {
  field: string;
  node: LString;
}

const templateFields = new WeakMap<PipeTypeSpec, Map<string, { how: ReturnType<typeof templateSpec> }>>();

/** Which keys of a pipe type hold templates, and how each is read (computed once per type). */
function templateFieldsOf(spec: PipeTypeSpec): Map<string, { how: ReturnType<typeof templateSpec> }> {
  let map = templateFields.get(spec);
  if (!map) {
    map = new Map(spec.fields.map((f) => [f.name, { how: templateSpec(f.value) }]));
    templateFields.set(spec, map);
  }
  return map;
}

function templateSpec(spec: ValueSpec): { shorthands: boolean; expression: boolean } | undefined {
  if (spec.kind === 'string' && (spec.role === 'template' || spec.role === 'expression')) {
    return { shorthands: spec.shorthands === true, expression: spec.role === 'expression' };
  }
  if (spec.kind === 'oneOf') {
    for (const o of spec.options) {
      const found = templateSpec(o);
      if (found) return found;
    }
  }
  return undefined;
}

// The sites are kept on the declaration itself, under a symbol: a WeakMap keyed by every pipe of
// every /validate costs a hash per pipe, and V8 keeps a WeakMap's entries (and the tree they reach)
// alive through every young-generation collection until a full one.
const SITES = Symbol('templateSites');
type WithSites = PipeDecl & { [SITES]?: { sites: TemplateSite[]; constructReads: ConstructRead[] } };

/** Every template of a pipe (computed once per pipe declaration; callers must not mutate). */
export function templateSites(pipe: PipeDecl): { readonly sites: readonly TemplateSite[]; readonly constructReads: readonly ConstructRead[] } {
  const decl = pipe as WithSites;
  let found = decl[SITES];
  if (!found) {
    found = collectSites(pipe);
    Object.defineProperty(decl, SITES, { value: found });
  }
  return found;
}

/** Appends to a list, starting with an array of one (most pipes have a single template). */
function append<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item];
  list.push(item);
  return list;
}

function collectSites(pipe: PipeDecl): { sites: TemplateSite[]; constructReads: ConstructRead[] } {
  let sites: TemplateSite[] = [];
  const constructReads: ConstructRead[] = [];
  if (!pipe.spec) return { sites, constructReads };
  const how = templateFieldsOf(pipe.spec);
  for (const entry of pipe.table.entries) {
    const field = how.get(entry.key);
    const node = entry.value;
    if (!field) continue;
    if (field.how && node.type === 'string') sites = append(sites, { field: entry.key, node, shorthands: field.how.shorthands, expression: field.how.expression });
    // The table form of a PipeCompose template.
    if (entry.key === 'template' && node.type === 'table') {
      const inner = getEntry(node, 'template')?.value;
      if (inner?.type === 'string') sites = append(sites, { field: 'template', node: inner, shorthands: true, expression: false });
    }
  }
  const construct = getEntry(pipe.table, 'construct')?.value;
  if (construct?.type === 'table') walkConstruct(construct, '', sites, constructReads);
  const questions = getEntry(pipe.table, 'questions')?.value;
  if (questions?.type === 'table') {
    for (const q of questions.entries) {
      const text = q.value.type === 'table' ? getEntry(q.value, 'question')?.value : undefined;
      if (text?.type === 'string') sites.push({ field: `questions.${q.key}.question`, node: text, shorthands: true, expression: false });
    }
  }
  return { sites, constructReads };
}

function walkConstruct(table: LTable, prefix: string, sites: TemplateSite[], reads: ConstructRead[]): void {
  for (const e of table.entries) {
    if (e.value.type !== 'table') continue;
    const path = prefix === '' ? e.key : `${prefix}.${e.key}`;
    const from = getEntry(e.value, 'from')?.value;
    const template = getEntry(e.value, 'template')?.value;
    if (from?.type === 'string') reads.push({ field: `construct field '${path}'`, node: from });
    else if (template?.type === 'string') sites.push({ field: `construct field '${path}'`, node: template, shorthands: true, expression: false });
    else if (!from && !template) walkConstruct(e.value, path, sites, reads);
  }
}
