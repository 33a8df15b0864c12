// Renaming a concept, a pipe, an input or a step result across a whole method tree: every
// occurrence of its key in every bundle, plus the manifest's mentions of a pipe (`main_pipe`,
// `[exports]`). Names are checked first (lexical form, natives, collisions), so that a rename
// never leaves the method worse than it was.

import type { Range } from '../syntax/types.js';
import type { Bundle } from '../language/model.js';
import { occurrenceAt, type Occurrence } from './occurrences.js';
import { parsePipeRef } from '../language/references.js';
import { PASCAL, SNAKE, SPECIAL_OUTCOMES, RUNTIME_TEMPLATE_NAMES } from '../language/spec/lexical.js';
import { getNative } from '../language/spec/natives.js';
import { conceptsOfKey, occurrencesOfSymbol, pipesOfKey, splitKey, splitMemberKey, treeIndex } from './symbolIndex.js';
import type { MethodTree } from '../language/tree.js';

export interface RenameEdit {
  file: string;
  range: Range;
  newText: string;
}

export type Prepared = { ok: true; occurrence: Occurrence; range: Range; placeholder: string } | { ok: false; message: string };

const RENAMEABLE: ReadonlySet<Occurrence['kind']> = new Set(['concept', 'pipe', 'input', 'template-variable', 'result']);

const WHAT: Record<string, string> = { concept: 'concept', pipe: 'pipe', input: 'input', 'template-variable': 'input', result: 'result' };

/** What a rename at `offset` would rename, or why nothing can be. */
export function prepareRename(tree: MethodTree, bundle: Bundle, offset: number): Prepared {
  const o = occurrenceAt(tree, bundle, offset);
  if (!o) return { ok: false, message: 'Nothing to rename here: put the cursor on a concept, a pipe, an input or a step result.' };
  if (!RENAMEABLE.has(o.kind)) return { ok: false, message: `A ${o.kind === 'pipe-type' ? 'pipe type' : o.kind} cannot be renamed.` };
  const name = bundle.doc.text.slice(o.range.start, o.range.end);
  if (o.kind === 'concept' && o.key.startsWith('native.')) return { ok: false, message: `\`${name}\` is a native concept: it cannot be renamed.` };
  const declared = occurrencesOfSymbol(tree, o).some((x) => x.role === 'declaration');
  if (!declared) {
    if (o.key.includes('->')) return { ok: false, message: `\`${name}\` lives in another package: rename it there.` };
    return { ok: false, message: `\`${name}\` is not declared in this method tree: declare it before renaming it.` };
  }
  return { ok: true, occurrence: o, range: o.range, placeholder: name };
}

export type RenamePlan = { ok: true; edits: RenameEdit[] } | { ok: false; message: string };

/** Every edit renaming the symbol at `offset` to `newName`, or why it is refused. */
export function planRename(tree: MethodTree, bundle: Bundle, offset: number, newName: string): RenamePlan {
  const prepared = prepareRename(tree, bundle, offset);
  if (!prepared.ok) return prepared;
  const o = prepared.occurrence;
  const oldName = prepared.placeholder;
  const name = newName.trim();
  const refusal = checkName(tree, o, oldName, name);
  if (refusal) return { ok: false, message: refusal };
  if (name === oldName) return { ok: true, edits: [] };
  const edits: RenameEdit[] = occurrencesOfSymbol(tree, o).map((x) => ({ file: x.file, range: x.range, newText: name }));
  if (o.kind === 'pipe') edits.push(...manifestEdits(tree, o.key, name));
  // One edit per place (a declaration may be listed by two collectors).
  const seen = new Set<string>();
  return {
    ok: true,
    edits: edits.filter((e) => {
      const id = `${e.file}:${e.range.start}:${e.range.end}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    }),
  };
}

function checkName(tree: MethodTree, o: Occurrence, oldName: string, name: string): string | undefined {
  const what = WHAT[o.kind]!;
  if (name === oldName) return undefined;
  if (o.kind === 'concept') {
    if (!PASCAL.test(name)) return `\`${name}\` is not a valid concept code: concept codes are PascalCase (\`${oldName}\`, \`InvoiceLine\`).`;
    if (getNative(name)) return `\`${name}\` is a native concept: a concept of your own cannot take its name.`;
    const { domain } = splitKey(o.key);
    const taken = domain !== undefined ? tree.symbols.get(domain)?.concepts.has(name) : conceptsOfKey(tree, name).length > 0;
    if (taken) return `A concept \`${name}\` already exists in ${domain !== undefined ? `domain \`${domain}\`` : 'this tree'}.`;
    return undefined;
  }
  if (!SNAKE.test(name)) return `\`${name}\` is not a valid ${what} name: ${what} names are snake_case (\`${oldName}\`, \`read_invoice\`).`;
  if (o.kind === 'pipe') {
    if (SPECIAL_OUTCOMES.includes(name)) return `\`${name}\` is a reserved outcome: a pipe cannot take its name.`;
    const { domain } = splitKey(o.key);
    if (pipesOfKey(tree, domain !== undefined ? `${domain}.${name}` : name).length > 0) return `A pipe \`${name}\` already exists in ${domain !== undefined ? `domain \`${domain}\`` : 'this tree'}.`;
    return undefined;
  }
  if (RUNTIME_TEMPLATE_NAMES.includes(name)) return `\`${name}\` is a name the runtime gives templates: choose another ${what} name.`;
  const member = splitMemberKey(o.key);
  if (!member) return undefined;
  const pipes = pipesOfKey(tree, member.pipeKey);
  const pipeCode = splitKey(member.pipeKey).code;
  if (pipes.some((p) => p.inputs.some((i) => i.name === name))) return `Pipe \`${pipeCode}\` already has an input \`${name}\`.`;
  const results = treeIndex(tree).byKey.get(`${member.pipeKey}#result:${name}`) ?? [];
  if (results.some((r) => r.role === 'declaration')) return `Pipe \`${pipeCode}\` already stores a result \`${name}\`.`;
  return undefined;
}

/** `main_pipe` and `[exports.<domain>] pipes` of the manifest name pipes by their bare code. */
function manifestEdits(tree: MethodTree, key: string, name: string): RenameEdit[] {
  const manifest = tree.manifest;
  if (!manifest) return [];
  const { domain, code } = splitKey(key);
  const edits: RenameEdit[] = [];
  for (const exp of manifest.exports) {
    if (exp.domain !== domain) continue;
    for (const node of exp.pipes) if (node.value === code && node.offsetMap.length === 0) edits.push({ file: manifest.file, range: { start: node.contentStart, end: node.contentEnd }, newText: name });
  }
  const main = manifest.mainPipe;
  if (main) {
    const ref = parsePipeRef(main.value);
    // A bare main pipe is the one of the main bundle's domain: rename it when that is this pipe's.
    const mainDomain = ref.ok ? (ref.value.domain ?? tree.bundles.find((b) => b.mainPipe?.value === main.value)?.domain?.value ?? domain) : undefined;
    if (ref.ok && ref.value.prefix === undefined && ref.value.code === code && mainDomain === domain) {
      const start = main.node.contentStart + ref.value.codeStart;
      if (main.node.offsetMap.length === 0) edits.push({ file: manifest.file, range: { start, end: start + code.length }, newText: name });
    }
  }
  return edits;
}
