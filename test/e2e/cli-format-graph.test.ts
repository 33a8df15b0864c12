// `mthds format` and `mthds graph` as processes: exit statuses, files rewritten (or not), outputs.

import { cpSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const REPO = path.resolve(__dirname, '../..');

function mthds(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { cwd });
  return { status, stdout, stderr };
}

function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-cli-fg-'));
  cpSync(path.join(REPO, 'examples/invoices'), path.join(dir, 'invoices'), { recursive: true });
  cpSync(path.join(REPO, 'examples/news'), path.join(dir, 'news'), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const MESSY = 'domain="invoices"\ndescription="Messy"\n[pipe.tidy]\ntype="PipeLLM"\ndescription="Tidy"\ninputs={pages="Page[]"}\noutput="Text"\nprompt="Read @pages"\n';

describe('mthds format', () => {
  it('--check lists the files that would change and exits 1, writing nothing', () => {
    const dir = tempDir({ 'invoices/messy.mthds': MESSY });
    const r = mthds(['format', '--check', '.'], dir);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual(['invoices/messy.mthds']);
    expect(r.stderr).toContain('1 file would be reformatted');
    expect(readFileSync(path.join(dir, 'invoices/messy.mthds'), 'utf8')).toBe(MESSY);
  });

  it('rewrites files in place; then --check passes', () => {
    const dir = tempDir({ 'invoices/messy.mthds': MESSY });
    const r = mthds(['format', 'invoices'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('formatted invoices/messy.mthds\n');
    expect(readFileSync(path.join(dir, 'invoices/messy.mthds'), 'utf8')).toBe(
      'domain      = "invoices"\ndescription = "Messy"\n\n[pipe.tidy]\ntype        = "PipeLLM"\ndescription = "Tidy"\ninputs      = { pages = "Page[]" }\noutput      = "Text"\nprompt      = "Read @pages"\n',
    );
    expect(mthds(['format', '--check', '.'], dir).status).toBe(0);
  });

  it('leaves a file with syntax errors alone and exits 2; options apply', () => {
    const dir = tempDir({ 'bad.mthds': 'domain = "x\n', 'list.mthds': 'a = [\n1,\n2]\n' });
    const r = mthds(['format', 'bad.mthds', 'list.mthds', '--indent', '4', '--no-trailing-comma'], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad.mthds: not formatted: the document has syntax errors');
    // Located as \`mthds check\` locates it: the same line, the same position and message.
    const located = r.stderr.split('\n').find((l) => l.startsWith('bad.mthds:'))!;
    expect(located).toMatch(/^bad\.mthds:1:12: error method\.syntax The file is not valid TOML/);
    expect(mthds(['check', '--no-dry-run', 'bad.mthds'], dir).stdout).toContain(located);
    expect(readFileSync(path.join(dir, 'bad.mthds'), 'utf8')).toBe('domain = "x\n');
    expect(readFileSync(path.join(dir, 'list.mthds'), 'utf8')).toBe('a = [\n    1,\n    2\n]\n');
    expect(mthds(['format', 'nowhere'], dir).status).toBe(2);
  });
});

describe('mthds graph', () => {
  it('prints a Mermaid flowchart by default', () => {
    const dir = tempDir();
    const r = mthds(['graph', 'invoices'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('flowchart LR');
    expect(r.stdout).toMatch(/n\d+\{\{"check_invoice<br\/><small>PipeSequence<\/small>"\}\}/);
    expect(r.stdout).toMatch(/n\d+ -->\|"pages: Page\[\]"\| n\d+/);
  });

  it('prints DOT and JSON', () => {
    const dir = tempDir();
    const dot = mthds(['graph', 'news', '--format', 'dot'], dir);
    expect(dot.status).toBe(0);
    expect(dot.stdout).toContain('"news.brief_article" -> "news.summarize_article" [style=solid, label="summary: Text"];');
    const json = mthds(['graph', 'news/news.mthds', '--format', 'json'], dir);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { trees: Array<{ nodes: Array<{ id: string; file: string; line: number }>; edges: unknown[] }> };
    expect(parsed.trees[0]!.nodes.map((n) => n.id)).toEqual(['news.brief_article', 'news.summarize_article', 'news.write_briefing']);
    expect(parsed.trees[0]!.nodes[0]!.file).toBe('news/news.mthds');
    expect(parsed.trees[0]!.nodes[0]!.line).toBe(17);
    expect(parsed.trees[0]!.edges).toHaveLength(2);
    expect(mthds(['graph', '--format', 'png'], dir).status).toBe(2);
  });

  it('draws an SVG picture itself: a well-formed document with every pipe and call', () => {
    const dir = tempDir({ 'support/support.mthds': readFileSync(path.join(REPO, 'test/fixtures/bundles/support.mthds'), 'utf8') });
    const r = mthds(['graph', '--format', 'svg', 'support', 'news'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(XMLValidator.validate(r.stdout)).toBe(true);
    expect(r.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const pipes = ['support.triage', 'support.read_ticket', 'support.answer', 'support.escalate', 'support.answer_calmly', 'news.brief_article', 'news.summarize_article', 'news.write_briefing'];
    for (const id of pipes) expect(r.stdout).toContain(`data-node="${id}"`);
    expect(r.stdout.match(/<g class="node /g)).toHaveLength(pipes.length);
    // One path per call: 2 steps + 3 outcomes (high, low, default) in support, 2 steps in news.
    expect(r.stdout.match(/<path class="edge /g)).toHaveLength(7);
    expect(r.stdout).toContain('<path class="edge edge-outcome');
    expect(r.stdout).toContain('>high</text>');
    // Both trees, each under its title (a lone bundle is named by its file), and the stylesheet
    // inside the document (no external file).
    expect(r.stdout).toMatch(/<text class="title" x="12" y="\d+">news\/news\.mthds<\/text>/);
    expect(r.stdout).toMatch(/<text class="title" x="12" y="\d+">support\/support\.mthds<\/text>/);
    expect(r.stdout).toMatch(/<style>[^<]*\.node-box \{/);
    const size = /^<svg [^>]*width="(\d+)" height="(\d+)"/m.exec(r.stdout)!;
    expect(Number(size[1])).toBeGreaterThan(300);
    expect(Number(size[2])).toBeGreaterThan(300);
  });

  it('writes a standalone HTML page with the same picture, without scripts', () => {
    const dir = tempDir();
    const r = mthds(['graph', '--format', 'html', 'invoices'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(r.stdout).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    const svg = r.stdout.slice(r.stdout.indexOf('<svg'), r.stdout.lastIndexOf('</svg>') + 6);
    expect(XMLValidator.validate(svg)).toBe(true);
    for (const id of ['invoices.check_invoice', 'invoices.extract_pages', 'invoices.read_invoice', 'invoices.verify_total']) expect(svg).toContain(`data-node="${id}"`);
  });
});

describe('mthds graph draws a call to a missing pipe the same in every format', () => {
  it('a dashed `code?` node in Mermaid, DOT, SVG and HTML', () => {
    const r = (format: string): string => mthds(['graph', '--format', format, 'examples/broken'], REPO).stdout;
    expect(r('mermaid')).toMatch(/\["sugest_recipe\?"\]:::missing/);
    expect(r('dot')).toContain('"sugest_recipe" [label="sugest_recipe?", style=dashed');
    for (const format of ['svg', 'html']) {
      const out = r(format);
      expect(out).toMatch(/<g class="node node-missing"[^>]*data-missing="sugest_recipe"/);
      expect(out).toMatch(/<rect class="node-box"[^>]*stroke-dasharray="4 3"\/><text class="node-code" x="10" y="33">sugest_recipe\?<\/text>/);
      // The call itself is drawn: one edge more than the calls between known pipes.
      expect(out).toContain('<path class="edge edge-step"');
    }
    expect(XMLValidator.validate(r('svg'))).toBe(true);
  });
});
