// A realistic multi-file method tree for the navigation, rename, symbol, formatting and graph tests:
// the `invoices` example package, plus bundles that add a signature and its implementation in
// another file, a sequence with results and a binding step, templates and a PipeDocGen template file;
// and the `news` example as a second tree.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fileURLToPath } from 'node:url';
import { LspClient, REPO, startClient, tempWorkspace, uriOf, PUSH_CAPABILITIES } from './harness.js';

export const REVIEW = `domain = "invoices"
description = "Review invoices"

[concept.Summary]
description = "A short summary of an invoice"
refines = "Text"

[pipe.summarize_invoice]
description = "The contract: summarize an invoice"
inputs = { invoice = "Invoice" }
output = "Summary"

[pipe.review_invoice]
type = "PipeSequence"
description = "Read an invoice, keep its total, summarize it"
inputs = { pages = "Page[]" }
output = "Summary"
steps = [
  { pipe = "read_invoice", result = "invoice" },
  { from = "invoice.total", result = "total" },
  { pipe = "summarize_invoice", result = "summary" },
]
`;

export const IMPL = `domain = "invoices"
description = "Implementations"

[pipe.summarize_invoice]
type = "PipeLLM"
description = "Summarize an invoice"
inputs = { invoice = "Invoice" }
output = "Summary"
prompt = """
Summarize the invoice $invoice.number, whose total is {{ invoice.total }}:

@invoice
"""

[pipe.render_invoice]
type = "PipeDocGen"
description = "Render an invoice"
inputs = { invoice = "invoices.Invoice" }
output = "Document"
template_file = "templates/invoice.html"
`;

export interface Fixture {
  ws: string;
  client: LspClient;
  file(rel: string): string;
  uri(rel: string): string;
  text(rel: string): string;
  /** Opens a file of the workspace in the client (its disk text, or `text`). */
  open(rel: string, text?: string): string;
}

export async function startFixture(options: { capabilities?: typeof PUSH_CAPABILITIES; extra?: Record<string, string> } = {}): Promise<Fixture> {
  const ws = tempWorkspace(
    { 'invoices/review.mthds': REVIEW, 'invoices/impl.mthds': IMPL, 'invoices/templates/invoice.html': '<h1>{{ invoice.number }}</h1>\n', ...options.extra },
    { invoices: path.join(REPO, 'examples/invoices'), news: path.join(REPO, 'examples/news') },
  );
  const client = await startClient({ folders: [ws], initializationOptions: { debounceMs: 0 }, capabilities: options.capabilities ?? PUSH_CAPABILITIES });
  await client.workspaceChecked();
  const file = (rel: string): string => path.join(ws, rel);
  const fixture: Fixture = {
    ws,
    client,
    file,
    uri: (rel) => uriOf(file(rel)),
    text: (rel) => readFileSync(file(rel), 'utf8'),
    open: (rel, text) => {
      const uri = uriOf(file(rel));
      client.open(uri, text ?? readFileSync(file(rel), 'utf8'));
      return uri;
    },
  };
  return fixture;
}

/** The position of the `nth` occurrence of `search` in `text`, `delta` characters into it. */
export function positionOf(text: string, search: string, delta = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(search, at + 1);
    if (at < 0) throw new Error(`'${search}' (#${nth}) not found`);
  }
  return TextDocument.create('x:', 'x', 0, text).positionAt(at + delta);
}

/** Applies edits to a text (as an editor would). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const doc = TextDocument.create('x:', 'x', 0, text);
  return TextDocument.applyEdits(doc, [...edits]);
}

/** The edits of a workspace edit per URI, whatever its form (changes or documentChanges). */
export function editsByUri(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) out.set(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) out.set(change.textDocument.uri, change.edits.filter((e): e is TextEdit => 'range' in e));
  }
  return out;
}

/** Applies a workspace edit: open documents through the client, closed files on disk. */
export function applyWorkspaceEdit(fixture: Fixture, edit: WorkspaceEdit, open: ReadonlySet<string>): void {
  for (const [uri, edits] of editsByUri(edit)) {
    if (open.has(uri)) fixture.client.edit(uri, edits);
    else {
      const file = fileURLToPath(uri);
      writeFileSync(file, applyTextEdits(readFileSync(file, 'utf8'), edits));
    }
  }
}
