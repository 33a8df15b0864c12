// Completion logic (language/complete): keys by table, values by role, references across the
// tree, template variables and field paths, snippets; on half-typed documents.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete, lazyDocumentation, type Completion } from '../../../server/src/ide/completion/index.js';
import { catalogFromDeck } from '../../../server/src/language/modelCatalog.js';
import { ROOT, treeOf } from '../../helpers/tree.js';

const CONCEPTS = `domain = "invoices"
description = "Shared concepts"

[concept.Invoice]
description = "A commercial document from a seller"

[concept.Invoice.structure]
number = { type = "text", description = "The invoice number", required = true }
total  = { type = "number", description = "The total amount due", required = true }
lines  = { type = "list", item_type = "concept", item_concept_ref = "LineItem", description = "The lines" }
seller = { type = "concept", concept_ref = "Party", description = "Who sells" }

[concept.LineItem]
description = "One line of an invoice"

[concept.LineItem.structure]
label  = "What was sold"
amount = { type = "number", description = "The amount of the line", required = true }

[concept.Party]
description = "A company"

[concept.Party.structure]
name = "The company name"
`;

const OTHER = `domain = "reports"
description = "Reports"

[concept.Report]
description = "A report"

[pipe.write_report]
type = "PipeLLM"
description = "Write a report"
inputs = { invoice = "invoices.Invoice" }
output = "Report"
prompt = "Report on $invoice"
`;

const MANIFEST = `[package]
name = "invoices"
address = "github.com/example/invoices"
version = "1.0.0"
description = "Invoices"

[dependencies]
scoring = { address = "github.com/example/scoring", version = "^1.0.0" }
`;

const DECK = catalogFromDeck(
  {
    models: [
      { name: 'gpt-4o', type: 'llm', provider: 'openai' },
      { name: 'mock-extract', type: 'extract', provider: 'mock' },
      { name: 'flux', type: 'img_gen', provider: 'fal' },
    ],
    aliases: { llm: { 'default-text': 'gpt-4o' }, img_gen: { 'default-image': 'flux' } },
    waterfalls: { llm: { cheap: ['gpt-4o'] } },
  },
  'the test deck',
);

/** Completes at the (last) `|` of `text`, in a tree with the other files. */
function at(text: string, options: { trigger?: string; files?: Record<string, string> } = {}): Completion[] {
  const offset = text.lastIndexOf('|');
  if (offset < 0) throw new Error('no cursor');
  const source = text.slice(0, offset) + text.slice(offset + 1);
  const tree = treeOf({ 'METHODS.toml': MANIFEST, 'concepts.mthds': CONCEPTS, 'other.mthds': OTHER, 'main.mthds': source, ...options.files });
  const bundle = tree.bundles.find((b) => b.file === path.join(ROOT, 'main.mthds'))!;
  return complete({ tree, bundle, offset, models: DECK, ...(options.trigger !== undefined ? { trigger: options.trigger } : {}) });
}

const labels = (items: readonly Completion[]): string[] => items.map((i) => i.label);
const sorted = (items: readonly Completion[]): string[] => [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((i) => i.label);

const HEAD = 'domain = "invoices"\ndescription = "Main"\n\n';

describe('keys', () => {
  it('offers the fields of the declared pipe type only, required first, present ones left out', () => {
    const items = at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\ndescription = "Read"\n|\n`);
    const names = sorted(items);
    expect(names[0]).toBe('output');
    expect(names).toContain('prompt');
    expect(names).toContain('model');
    expect(names).not.toContain('type');
    expect(names).not.toContain('description');
    // Fields of other types and retired fields are not offered.
    expect(names).not.toContain('steps');
    expect(names).not.toContain('llm');
    expect(names.indexOf('output')).toBeLessThan(names.indexOf('prompt'));
    const prompt = items.find((i) => i.label === 'prompt')!;
    expect(prompt.insertText).toBe('prompt = """\n$1\n"""');
    expect(prompt.snippet).toBe(true);
    expect(prompt.documentation).toContain('Jinja2');
  });

  it('offers a typeless section `type` and the keys of a signature', () => {
    const keys = at(`${HEAD}[pipe.read]\n|\n`).filter((i) => i.kind === 'key');
    expect(sorted(keys)).toEqual(['type', 'description', 'output', 'inputs', 'signature_for']);
  });

  it('completes a key being typed, without a value, and keeps `=` when one follows', () => {
    const typed = at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\nou|\n`);
    const output = typed.find((i) => i.label === 'output')!;
    expect(output.insertText).toBe('output = "$1"');
    const src = `${HEAD}[pipe.read]\ntype = "PipeLLM"\nou|tput = "Text"\n`;
    const renamed = at(src).find((i) => i.label === 'output')!;
    expect(renamed.insertText).toBe('output');
  });

  it('offers concept keys, structure-field keys, step keys and settings keys', () => {
    expect(labels(at(`${HEAD}[concept.Thing]\n|\n`))).toEqual(expect.arrayContaining(['description', 'refines', 'structure']));
    expect(labels(at(`${HEAD}[concept.Thing]\n|\n`))).not.toContain('definition');
    expect(labels(at(`${HEAD}[concept.Thing.structure]\nname = { | }\n`))).toEqual(expect.arrayContaining(['type', 'description', 'required', 'choices', 'concept_ref']));
    const step = at(`${HEAD}[pipe.seq]\ntype = "PipeSequence"\nsteps = [\n  { pipe = "x", re| },\n]\n`);
    expect(labels(step)).toEqual(expect.arrayContaining(['result', 'batch_over', 'nb_output']));
    expect(labels(step)).not.toContain('pipe');
    const llm = at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\nmodel = { model = "x", | }\n`);
    expect(labels(llm)).toEqual(expect.arrayContaining(['temperature', 'max_tokens', 'reasoning_effort']));
    expect(llm.find((i) => i.label === 'temperature')!.detail).toMatch(/^required/);
    const img = at(`${HEAD}[pipe.draw]\ntype = "PipeImgGen"\nmodel = { | }\n`);
    expect(labels(img)).toEqual(expect.arrayContaining(['model', 'quality', 'nb_steps']));
    expect(labels(img)).not.toContain('temperature');
    expect(labels(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\ninputs = { doc = { | } }\n`))).toEqual(['concept', 'hints']);
  });

  it('offers the bundle keys at the root, and snippets for new pipes and concepts on fresh lines', () => {
    const items = at(`|\n[pipe.a]\ntype = "PipeLLM"\n`);
    expect(labels(items)).toEqual(expect.arrayContaining(['domain', 'description', 'main_pipe', 'system_prompt', 'pipe PipeLLM', 'pipe PipeSequence', 'concept (simple)', 'concept (structured)']));
    const llm = items.find((i) => i.label === 'pipe PipeLLM')!;
    expect(llm.insertText.startsWith('[pipe.${1:name}]\ntype = "PipeLLM"\ndescription = "${2:What it does}"')).toBe(true);
    expect(llm.insertText).toContain('\\$${3:text}');
    expect(labels(at(`${HEAD}[concept]\n|\n`))).toEqual(['concept (simple)']);
  });
});

describe('values', () => {
  it('offers current pipe types with docs, never retired ones', () => {
    const items = at(`${HEAD}[pipe.read]\ntype = "Pi|"\n`);
    expect(labels(items)).toContain('PipeLLM');
    expect(labels(items)).toContain('PipeBatch');
    expect(labels(items)).not.toContain('PipeJinja2');
    expect(labels(items)).not.toContain('PipeSignature');
    expect(items.find((i) => i.label === 'PipeLLM')!.documentation).toContain('large language model');
    // The whole value is replaced.
    expect(items[0]!.range).toEqual({ start: `${HEAD}[pipe.read]\ntype = "`.length, end: `${HEAD}[pipe.read]\ntype = "Pi`.length });
  });

  it('quotes values typed after `=` and closes unterminated strings', () => {
    const bare = at(`${HEAD}[pipe.read]\ntype = |\n`, { trigger: ' ' });
    expect(bare.find((i) => i.label === 'PipeLLM')!.insertText).toBe('"PipeLLM"');
    const open = at(`${HEAD}[pipe.read]\ntype = "PipeL|\noutput = "Text"\n`);
    expect(open.find((i) => i.label === 'PipeLLM')!.insertText).toBe('PipeLLM"');
    expect(at(`${HEAD}[pipe.read]\ntype =|\n`, { trigger: '=' }).find((i) => i.label === 'PipeLLM')!.insertText).toBe(' "PipeLLM"');
    const bool = at(`${HEAD}[pipe.read]\ntype = "PipeExtract"\npage_views = |\n`);
    expect(labels(bool)).toEqual(['true', 'false']);
  });

  it('offers the allowed values the description lists', () => {
    expect(labels(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\nstructuring_method = "|"\n`))).toEqual(['direct', 'preliminary_text']);
    expect(labels(at(`${HEAD}[pipe.draw]\ntype = "PipeImgGen"\naspect_ratio = "|"\n`))).toContain('landscape_16_9');
    expect(labels(at(`${HEAD}[pipe.c]\ntype = "PipeCompose"\ntemplate = { template = "x", category = "|" }\n`))).toContain('markdown');
    expect(labels(at(`${HEAD}[pipe.c]\ntype = "PipeLLM"\ntemplating_style = { tag_style = "|" }\n`))).toEqual(['no_tag', 'ticks', 'xml', 'square_brackets']);
    expect(labels(at(`${HEAD}[concept.A.structure]\nx = { type = "|" }\n`))).toContain('datetime');
    expect(labels(at(`${HEAD}[pipe.sig]\nsignature_for = "|"\n`))).not.toContain('PipeDocGen');
    expect(labels(at(`${HEAD}[concept.A]\nhints = { intent = "|" }\n`))).toEqual(['prose', 'label', 'rating', 'quantity']);
  });
});

describe('concept references', () => {
  it('offers natives, the domain bare, other domains qualified and dependency aliases', () => {
    const items = at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\noutput = "|"\n`);
    const names = labels(items);
    expect(names).toEqual(expect.arrayContaining(['Text', 'Image', 'Invoice', 'LineItem', 'reports.Report', 'scoring->']));
    expect(names).not.toContain('invoices.Invoice');
    // A domain typed: the bundle's own domain is written too.
    expect(labels(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\noutput = "invoices.|"\n`, { trigger: '.' }))).toEqual(expect.arrayContaining(['invoices.Invoice', 'reports.Report']));
    expect(sorted(items)[0]).toBe('Invoice');
    const invoice = items.find((i) => i.label === 'Invoice')!;
    expect(invoice.resolve).toEqual({ kind: 'concept', key: 'invoices.Invoice' });
    const tree = treeOf({ 'METHODS.toml': MANIFEST, 'concepts.mthds': CONCEPTS, 'other.mthds': OTHER });
    expect(lazyDocumentation(tree, tree.bundles[1]!, invoice.resolve!)).toContain('| `total` | number | yes | The total amount due |');
    expect(items.find((i) => i.label === 'scoring->')!.retrigger).toBe(true);
  });

  it('keeps the multiplicity and marker typed after the reference', () => {
    const src = `${HEAD}[pipe.read]\ntype = "PipeLLM"\ninputs = { lines = "Li|[]?" }\n`;
    const item = at(src).find((i) => i.label === 'LineItem')!;
    const start = src.indexOf('Li|');
    expect(item.range).toEqual({ start, end: start + 2 });
    expect(item.insertText).toBe('LineItem');
    expect(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\ninputs = { lines = "LineItem[|]" }\n`)).toEqual([]);
  });

  it('completes refines, concept_ref and item_concept_ref, never a concept refining itself', () => {
    expect(labels(at(`${HEAD}[concept.Receipt]\ndescription = "x"\nrefines = "|"\n`))).toContain('Invoice');
    expect(labels(at(`${HEAD}[concept.Receipt]\ndescription = "x"\nrefines = "|"\n`))).not.toContain('Receipt');
    expect(labels(at(`${HEAD}[concept.A.structure]\nx = { type = "concept", concept_ref = "|" }\n`))).toContain('Party');
    expect(labels(at(`${HEAD}[concept.A.structure]\nx = { type = "list", item_type = "concept", item_concept_ref = "|" }\n`))).toContain('LineItem');
  });

  it('completes after `=` with the quotes', () => {
    const item = at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\noutput = |\n`, { trigger: ' ' }).find((i) => i.label === 'Text')!;
    expect(item.insertText).toBe('"Text"');
  });
});

describe('pipe references', () => {
  const SEQ = `${HEAD}[pipe.check]\ntype = "PipeSequence"\ndescription = "x"\noutput = "Text"\nsteps = [{ pipe = "|" }]\n\n[pipe.extract]\ntype = "PipeExtract"\ndescription = "Extract"\ninputs = { document = "Document" }\noutput = "Page[]"\n`;

  it('offers the pipes of the bundle, the domain and other domains, never the pipe itself', () => {
    const items = at(SEQ);
    expect(labels(items)).toEqual(expect.arrayContaining(['extract', 'reports.write_report']));
    expect(labels(items)).not.toContain('check');
    expect(items.find((i) => i.label === 'extract')!.detail).toBe('extract(document: Document) -> Page[]');
  });

  it('adds fail and continue to outcomes and the default outcome', () => {
    const cond = `${HEAD}[pipe.route]\ntype = "PipeCondition"\nexpression = "x"\noutcomes = { a = "|" }\n`;
    expect(labels(at(cond))).toEqual(expect.arrayContaining(['fail', 'continue']));
    expect(labels(at(`${HEAD}[pipe.route]\ntype = "PipeCondition"\ndefault_outcome = "|"\n`))).toEqual(expect.arrayContaining(['fail', 'continue']));
    expect(labels(at(SEQ))).not.toContain('fail');
  });

  it('completes branch_pipe_code and main_pipe (own pipes only)', () => {
    expect(labels(at(`${HEAD}[pipe.batch]\ntype = "PipeBatch"\nbranch_pipe_code = "|"\n\n[pipe.one]\ntype = "PipeLLM"\n`))).toContain('one');
    const main = labels(at(`domain = "invoices"\nmain_pipe = "|"\n\n[pipe.one]\ntype = "PipeLLM"\n`));
    expect(main).toEqual(['one']);
  });
});

describe('model references', () => {
  it('offers the deck of the pipe type\'s category with sigils', () => {
    const llm = labels(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\nmodel = "|"\n`));
    expect(llm).toEqual(expect.arrayContaining(['gpt-4o', '@default-text', '~cheap']));
    expect(llm).not.toContain('flux');
    const img = labels(at(`${HEAD}[pipe.draw]\ntype = "PipeImgGen"\nmodel = "@|"\n`, { trigger: '@' }));
    expect(img.sort()).toEqual(['@default-image', 'flux']);
    // A judge takes the llm models when the deck has no judgment category.
    expect(labels(at(`${HEAD}[pipe.judge]\ntype = "PipeJudge"\nmodel = "|"\n`))).toContain('gpt-4o');
    expect(labels(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\nmodel = { model = "|" }\n`))).toContain('@default-text');
  });
});

describe('template variables', () => {
  const LLM = (prompt: string): string => `${HEAD}[pipe.read]\ntype = "PipeLLM"\ndescription = "x"\ninputs = { invoice = "Invoice", note = "Text?" }\noutput = "Text"\nprompt = """\n${prompt}\n"""\n`;

  it('offers the inputs after $, @ and @? and inside {{ }}', () => {
    expect(labels(at(LLM('Check $|'), { trigger: '$' }))).toEqual(['invoice', 'note']);
    expect(labels(at(LLM('@|'), { trigger: '@' }))).toEqual(['invoice', 'note']);
    expect(sorted(at(LLM('@?|'), { trigger: '?' }))).toEqual(['note', 'invoice']);
    expect(labels(at(LLM('{{ |'), { trigger: ' ' }))).toEqual(['invoice', 'note']);
    expect(labels(at(LLM('{% if | %}'), { trigger: ' ' }))).toEqual(['invoice', 'note']);
    // `@` inline is no shorthand; `$$` is an escape; a filter name is no variable.
    expect(at(LLM('Mail me @|'), { trigger: '@' })).toEqual([]);
    expect(at(LLM('Costs $$|'), { trigger: '$' })).toEqual([]);
    expect(at(LLM('{{ invoice | |'), { trigger: ' ' })).toEqual([]);
    expect(at(LLM('{% |'), { trigger: ' ' })).toEqual([]);
  });

  it('offers the fields of the concept after a dot, through concept and list fields', () => {
    const items = at(LLM('Check $invoice.|'), { trigger: '.' });
    expect(labels(items)).toEqual(['number', 'total', 'lines', 'seller']);
    expect(items.find((i) => i.label === 'lines')!.detail).toBe('LineItem[] (optional)');
    expect(labels(at(LLM('{{ invoice.seller.| }}'), { trigger: '.' }))).toEqual(['name']);
    // Natives walk too; a list is not walked in a template.
    expect(labels(at(LLM('{{ invoice.lines.| }}'), { trigger: '.' }))).toEqual([]);
    expect(labels(at(LLM('$note.|'), { trigger: '.' }))).toEqual([]);
  });

  it('replaces the name being typed', () => {
    const src = LLM('Check $inv|oice');
    const item = at(src).find((i) => i.label === 'invoice')!;
    const start = src.indexOf('inv|');
    expect(item.range).toEqual({ start, end: start + 'invoice'.length });
  });

  it('works in an unterminated template and in a condition expression', () => {
    const open = `${HEAD}[pipe.read]\ntype = "PipeLLM"\ninputs = { invoice = "Invoice" }\nprompt = """\nCheck $invoice.t|\n`;
    expect(labels(at(open))).toContain('total');
    const cond = `${HEAD}[pipe.route]\ntype = "PipeCondition"\ninputs = { invoice = "Invoice" }\nexpression = "invoice.|"\n`;
    expect(labels(at(cond, { trigger: '.' }))).toContain('number');
  });

  it('completes binding paths from the names held before the step', () => {
    const seq = `${HEAD}[pipe.check]\ntype = "PipeSequence"\ninputs = { document = "Document" }\noutput = "Text"\nsteps = [\n  { pipe = "read", result = "invoice" },\n  { from = "invoice.|", result = "total" },\n]\n\n[pipe.read]\ntype = "PipeLLM"\ninputs = { document = "Document" }\noutput = "Invoice"\n`;
    expect(labels(at(seq, { trigger: '.' }))).toEqual(['number', 'total', 'lines', 'seller']);
    const root = seq.replace('invoice.|', '|');
    expect(labels(at(root))).toEqual(['document', 'invoice']);
  });
});

describe('headers and triggers', () => {
  it('offers snippets on a header being typed', () => {
    const items = at(`${HEAD}[pi|\n`, { trigger: '[' });
    expect(labels(items)).toContain('pipe PipeSequence');
    expect(items[0]!.range).toEqual({ start: HEAD.length, end: HEAD.length + 3 });
    expect(labels(at(`${HEAD}[concept.Thing.|]\n`))).toEqual(['structure']);
  });

  it('stays quiet where a trigger character means nothing', () => {
    expect(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\ndescription = "Read $|"\n`, { trigger: '$' })).toEqual([]);
    expect(at(`${HEAD}[pipe.read]\ntype = "PipeLLM"\n |\n`, { trigger: ' ' })).toEqual([]);
    expect(at(`${HEAD}# a comment |\n`)).toEqual([]);
  });

  it('offers step snippets between the items of steps', () => {
    expect(labels(at(`${HEAD}[pipe.seq]\ntype = "PipeSequence"\nsteps = [\n  |\n]\n`))).toEqual(['{ pipe, result }', '{ from, result }']);
  });
});
