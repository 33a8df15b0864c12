// Findings that another finding of the same pipe can explain. An input is "unused" while the key
// that reads it is misspelt, the pipe's type is wrong or unknown, or a step it feeds does not
// resolve; an input read is "undeclared" beside an unused one when one name is a misspelling of the
// other. Their fixes (remove the input, declare the read) would repair the symptom and destroy what
// the author wrote, and then block the fix of the cause: while a cause stands in the same pipe,
// such a fix is offered as a suggestion only (not safe), and safe fixes of causes are chosen
// first. One place for every rule: the rules raise what they see, this decides what is safe.

import type { Bundle } from '../language/model.js';
import type { Finding } from './finding.js';

/** Findings that may explain an input's use in their pipe: the pipe's keys, type or steps are wrong. */
const CAUSES: ReadonlySet<string> = new Set(['method.schema_violation', 'method.pipe_type_invalid', 'method.pipe_unresolved', 'method.template_invalid']);

/** Findings about an input's use whose fix is a guess while a cause stands. */
const CONSEQUENCES: ReadonlySet<string> = new Set(['method.input_unused', 'method.input_undeclared']);

/** The pipe a finding is about (its code), when it is about one. */
function pipeOf(f: Finding): string | undefined {
  if (f.code === 'method.schema_violation') {
    const path = f.params['field_path'];
    const m = typeof path === 'string' ? /^pipe\.([^.]+)(?:\.|$)/.exec(path) : null;
    return m ? m[1] : undefined;
  }
  const pipe = f.params['pipe'];
  return typeof pipe === 'string' ? pipe : undefined;
}

/** Whether a finding is a cause others of its pipe may be consequences of: its fix goes first. */
export function isCause(f: Finding): boolean {
  return CAUSES.has(f.code);
}

/**
 * The findings of one bundle with the safe fix of each consequence made a suggestion while a cause
 * of the same pipe stands (an unused input beside an undeclared read counts as one for the other).
 * Findings are replaced by copies (never changed: callers may share them); the list is returned as
 * given when nothing changes.
 */
export function holdConsequences(findings: Finding[], bundle?: Bundle): Finding[] {
  // By file, then pipe: the codes raised there. Keyed by the findings' own strings (a document
  // with 30,000 unused inputs made a key string per finding, twice).
  let causes: Causes | undefined;
  for (const f of findings) {
    if (!CAUSES.has(f.code) && !CONSEQUENCES.has(f.code)) continue;
    const pipe = pipeOf(f);
    if (pipe === undefined) continue;
    causes ??= new Map();
    let pipes = causes.get(f.file);
    if (!pipes) causes.set(f.file, (pipes = new Map()));
    let codes = pipes.get(pipe);
    if (!codes) pipes.set(pipe, (codes = new Set()));
    codes.add(f.code);
  }
  if (!causes) return findings;
  if (bundle) spreadToCallers(causes, bundle);
  let out: Finding[] | undefined;
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i]!;
    if (!CONSEQUENCES.has(f.code) || !f.fix?.safe) continue;
    const pipe = pipeOf(f);
    const codes = pipe === undefined ? undefined : causes.get(f.file)?.get(pipe);
    if (!codes || !explains(codes, f.code)) continue;
    out ??= [...findings];
    out[i] = { ...f, fix: { ...f.fix, safe: false } };
  }
  return out ?? findings;
}

type Causes = Map<string, Map<string, Set<string>>>;

/** Whether the codes raised in a pipe explain a consequence of code `code` there. */
function explains(codes: ReadonlySet<string>, code: string): boolean {
  for (const c of codes) if (CAUSES.has(c) || (CONSEQUENCES.has(c) && c !== code)) return true;
  return false;
}

/**
 * A controller whose step runs a pipe of the bundle that has a cause has one too: its inputs are
 * "unused" when the step's pipe no longer declares them (a misspelt `inputs` key). Followed through
 * the bundle's own pipes (bare references), to a fixed point.
 */
function spreadToCallers(causes: Causes, bundle: Bundle): void {
  const raised = causes.get(bundle.file) ?? new Map<string, Set<string>>();
  causes.set(bundle.file, raised);
  const caused = (code: string): boolean => {
    for (const c of raised.get(code) ?? []) if (CAUSES.has(c)) return true;
    return false;
  };
  const codes = new Set(bundle.pipes.map((p) => p.code));
  for (let changed = true, rounds = 0; changed && rounds < bundle.pipes.length; rounds++) {
    changed = false;
    for (const pipe of bundle.pipes) {
      if (caused(pipe.code)) continue;
      if (!pipe.pipeRefs.some((r) => !r.special && codes.has(r.raw) && r.raw !== pipe.code && caused(r.raw))) continue;
      let set = raised.get(pipe.code);
      if (!set) raised.set(pipe.code, (set = new Set()));
      set.add('method.pipe_unresolved');
      changed = true;
    }
  }
}
