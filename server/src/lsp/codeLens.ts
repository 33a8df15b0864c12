// Code lenses above each pipe of a bundle: "Run" (the pipe, through mthds.runner.execute, with the
// inputs to ask for from the pipe I/O description; not for signatures, which cannot run) and "Validate" (the tree, through mthds.runner.validate).

import type { CodeLens } from 'vscode-languageserver';
import { ConceptCatalog } from '../language/jsonSchema.js';
import type { Bundle } from '../language/model.js';
import { inputFormOf, runPrompt } from '../language/pipeIo.js';
import type { MethodTree } from '../language/tree.js';
import { rangeToLspRange } from '../syntax/positions.js';

/** With the tree, "Run" carries what to ask for (`prompt`): the client asks for the inputs before running. */
export function pipeCodeLenses(bundle: Bundle, uri: string, tree?: MethodTree): CodeLens[] {
  const lenses: CodeLens[] = [];
  const catalog = tree ? new ConceptCatalog(tree) : undefined;
  const domain = bundle.domain?.value;
  for (const pipe of bundle.pipes) {
    // On the line of the `[pipe.x]` header (or the key of an inline pipe).
    const range = rangeToLspRange(bundle.doc.lineStarts, { start: pipe.range.start, end: pipe.codeRange.end });
    const lineRange = { start: range.start, end: range.start };
    if (!pipe.typeless) {
      const code = domain === undefined ? pipe.code : `${domain}.${pipe.code}`;
      const args: { uri: string; pipe: string; prompt?: ReturnType<typeof runPrompt> } = { uri, pipe: code };
      if (catalog) args.prompt = runPrompt(inputFormOf(catalog, pipe));
      lenses.push({ range: lineRange, command: { title: 'Run', command: 'mthds.runner.execute', arguments: [args] } });
    }
    lenses.push({ range: lineRange, command: { title: 'Validate', command: 'mthds.runner.validate', arguments: [{ uri }] } });
  }
  return lenses;
}
