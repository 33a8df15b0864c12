// Code lenses above each pipe of a bundle: "Run" (the pipe, through mthds.runner.execute; not for
// signatures, which cannot run) and "Validate" (the tree, through mthds.runner.validate).

import type { CodeLens } from 'vscode-languageserver';
import type { Bundle } from '../language/model.js';
import { rangeToLspRange } from '../syntax/positions.js';

export function pipeCodeLenses(bundle: Bundle, uri: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  const domain = bundle.domain?.value;
  for (const pipe of bundle.pipes) {
    // On the line of the `[pipe.x]` header (or the key of an inline pipe).
    const range = rangeToLspRange(bundle.doc.lineStarts, { start: pipe.range.start, end: pipe.codeRange.end });
    const lineRange = { start: range.start, end: range.start };
    if (!pipe.typeless) {
      const code = domain === undefined ? pipe.code : `${domain}.${pipe.code}`;
      lenses.push({ range: lineRange, command: { title: 'Run', command: 'mthds.runner.execute', arguments: [{ uri, pipe: code }] } });
    }
    lenses.push({ range: lineRange, command: { title: 'Validate', command: 'mthds.runner.validate', arguments: [{ uri }] } });
  }
  return lenses;
}
