// The tree behind the completion, hover, inlay hint and semantic token tests: the `invoices`
// example package with a dependency, a review bundle (sequence with a batched step and a binding
// step, templates reading fields, a condition) and a bundle of another domain; the `news` and
// `broken` examples beside it.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-protocol';
import { REPO, tempWorkspace } from './harness.js';

export const MANIFEST = `[package]
name        = "invoices"
address     = "github.com/example/invoices"
version     = "1.0.0"
description = "Read invoices and check their totals"
main_pipe   = "check_invoice"

[dependencies]
scoring = { address = "github.com/example/scoring", version = "^1.0.0" }

[exports.invoices]
pipes = ["check_invoice"]
`;

export const REVIEW = `domain = "invoices"
description = "Review invoices"

[concept.Summary]
description = "A short summary of an invoice"
refines = "Text"

[pipe.review_invoices]
type = "PipeSequence"
description = "Read each invoice, keep the first total, summarize"
inputs = { documents = "Document[]" }
output = "Summary"
steps = [
  { pipe = "read_document", batch_over = "documents", batch_as = "document", result = "invoices" },
  { pipe = "pick_invoice", result = "invoice" },
  { from = "invoice.total", result = "total" },
  { pipe = "summarize_invoice", result = "summary" },
]

[pipe.read_document]
type = "PipeLLM"
description = "Read one invoice document"
inputs = { document = "Document" }
output = "Invoice"
model = "@default-llm"
prompt = """
Read the invoice in this document:

@document
"""

[pipe.pick_invoice]
type = "PipeLLM"
description = "Pick the invoice to summarize"
inputs = { invoices = "Invoice[]" }
output = "Invoice"
prompt = "Pick one of $invoices"

[pipe.summarize_invoice]
type = "PipeLLM"
description = "Summarize an invoice"
inputs = { invoice = "Invoice", total = "Number" }
output = "Summary"
prompt = """
Summarize the invoice $invoice.number of {{ invoice.total }} ($total):

@invoice
"""

[pipe.route_invoice]
type = "PipeCondition"
description = "Route an invoice by its total"
inputs = { invoice = "Invoice" }
output = "Summary"
expression = "invoice.total"
outcomes = { "0" = "summarize_invoice" }
default_outcome = "fail"
`;

export const REPORTS = `domain = "reports"
description = "Reports on invoices"

[concept.Report]
description = "A report for the accountant"

[pipe.write_report]
type = "PipeLLM"
description = "Write a report on an invoice"
inputs = { invoice = "invoices.Invoice" }
output = "Report"
prompt = "Write a report on $invoice"
`;

export interface AssistTree {
  ws: string;
  file(rel: string): string;
  text(rel: string): string;
}

export function assistTree(extra: Record<string, string> = {}): AssistTree {
  const ws = tempWorkspace(
    { 'invoices/METHODS.toml': MANIFEST, 'invoices/review.mthds': REVIEW, 'invoices/reports.mthds': REPORTS, ...extra },
    { invoices: path.join(REPO, 'examples/invoices'), news: path.join(REPO, 'examples/news'), broken: path.join(REPO, 'examples/broken') },
  );
  return { ws, file: (rel) => path.join(ws, rel), text: (rel) => readFileSync(path.join(ws, rel), 'utf8') };
}

/** The position of the `nth` occurrence of `needle` in `text`, moved by `delta` characters. */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' not found`);
  }
  return TextDocument.create('x:', 'x', 0, text).positionAt(at + delta);
}

/** The position at the end of `needle`. */
export function after(text: string, needle: string, nth = 0): Position {
  return positionOf(text, needle, needle.length, nth);
}

/** The position at the end of the last occurrence of `needle`. */
export function afterLast(text: string, needle: string): Position {
  const at = text.lastIndexOf(needle);
  if (at < 0) throw new Error(`'${needle}' not found`);
  return TextDocument.create('x:', 'x', 0, text).positionAt(at + needle.length);
}
