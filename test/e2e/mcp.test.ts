// `mthds mcp` driven by the official MCP client over stdio: the tools listed with their schemas,
// `check` equal to `mthds check --format json`, unsaved buffers, `fix` (dry run, codes, the same
// files as `mthds check --fix`), format, graph, explain, pipe_io, run on the built-in runner, and
// bad arguments answered as tool errors by a server that keeps serving.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO } from '../helpers/files.js';
import { startRunner } from '../../server/src/runner/index.js';
import { CLI_BIN as BIN, runCli } from '../helpers/cli.js';

const TOOLS = ['check', 'explain', 'fix', 'format', 'graph', 'pipe_io', 'run'];

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
}

async function connect(root: string, args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mthds-test', version: '1.0.0' });
  const environment = Object.assign({}, process.env as Record<string, string>, env);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root, ...args], stderr: 'pipe', env: environment }));
  return client;
}

function cli(args: string[], cwd: string): { status: number | null; stdout: string } {
  const { status, stdout } = runCli(args, { cwd });
  return { status, stdout };
}

function copyOf(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-mcp-'));
  copyFileSync(path.join(FIXTURES, 'fix', name), path.join(dir, name));
  return dir;
}

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> => (await client.callTool({ name, arguments: args })) as ToolAnswer;

let repo: Client;
beforeAll(async () => {
  repo = await connect(REPO);
}, 30_000);
afterAll(async () => {
  await repo.close();
});

describe('mthds mcp over stdio', () => {
  it('lists exactly its tools, each with input and output schemas and a description under 2,048 characters', async () => {
    const { tools } = await repo.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.description!.length).toBeLessThan(2048);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('check answers what `mthds check --format json` prints, with a text summary', async () => {
    const r = await call(repo, 'check', { paths: ['examples'] });
    const expected = cli(['check', '--format', 'json', 'examples'], REPO);
    expect(expected.status).toBe(1);
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(JSON.parse(expected.stdout));
    expect(r.content[0]!.text).toMatch(/^7 error\(s\), 0 warning\(s\) in 5 file\(s\)\.\nexamples\/broken\/broken\.mthds:10:84: error method\.concept_invalid /);
  }, 60_000);

  it('check reads unsaved buffers over the disk, new files included', async () => {
    const news = readFileSync(path.join(REPO, 'examples/news/news.mthds'), 'utf8');
    const broken = news.replace('output      = "Briefing"', 'output      = "Briefng"');
    const r = await call(repo, 'check', { paths: ['examples/news'], files: [{ path: 'examples/news/news.mthds', text: broken }] });
    expect(r.structuredContent!['findings'].map((f: { code: string }) => f.code)).toContain('method.concept_unresolved');
    const clean = await call(repo, 'check', { paths: ['examples/news'] });
    expect(clean.structuredContent).toMatchObject({ errors: 0, findings: [] });
    const added = await call(repo, 'check', { paths: ['examples/news'], files: [{ path: 'examples/news/extra.mthds', text: 'domain = "news"\ndescription = "x"\n\n[pipe.extra]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Nope"\nprompt = "x"\n' }] });
    expect(added.structuredContent!['findings']).toEqual([expect.objectContaining({ file: 'examples/news/extra.mthds', code: 'method.concept_unresolved', line: 7 })]);
  }, 60_000);

  it('fix: a dry run writes nothing and reports the edits and what would be left; the fix writes what `mthds check --fix` writes', async () => {
    const dir = copyOf('story.mthds');
    const file = path.join(dir, 'story.mthds');
    const before = readFileSync(file, 'utf8');
    const client = await connect(dir);
    try {
      const dry = await call(client, 'fix', { dry_run: true });
      expect(dry.isError).toBeFalsy();
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(dry.structuredContent!['fixed'].map((f: { code: string; line: number }) => `${f.line}:${f.code}`)).toEqual(['8:method.input_unused', '15:method.input_unused', '16:method.optional_marker_invalid']);
      expect(dry.structuredContent!['fixed'][2].edits).toEqual([{ range: { start: { line: 15, character: expect.any(Number) }, end: { line: 15, character: expect.any(Number) } }, newText: '' }]);
      expect(dry.structuredContent!['findings'].map((f: { code: string }) => f.code)).toEqual(['method.identifier_invalid']);

      const one = await call(client, 'fix', { codes: ['method.optional_marker_invalid'], dry_run: true });
      expect(one.structuredContent!['fixed'].map((f: { code: string }) => f.code)).toEqual(['method.optional_marker_invalid']);

      const done = await call(client, 'fix', {});
      expect(done.structuredContent!['fixed']).toHaveLength(3);
      expect(done.structuredContent!['findings'].map((f: { code: string }) => f.code)).toEqual(['method.identifier_invalid']);
      const other = copyOf('story.mthds');
      cli(['check', '--fix', 'story.mthds'], other);
      expect(readFileSync(file, 'utf8')).toBe(readFileSync(path.join(other, 'story.mthds'), 'utf8'));
    } finally {
      await client.close();
    }
  }, 60_000);

  it('format lists what would change without writing', async () => {
    const dir = copyOf('story.mthds');
    const client = await connect(dir);
    try {
      const before = readFileSync(path.join(dir, 'story.mthds'), 'utf8');
      const r = await call(client, 'format', { dry_run: true });
      expect(r.structuredContent).toEqual({ dry_run: true, changed: ['story.mthds'], problems: [] });
      expect(readFileSync(path.join(dir, 'story.mthds'), 'utf8')).toBe(before);
      const written = await call(client, 'format', {});
      expect(written.structuredContent!['changed']).toEqual(['story.mthds']);
      expect((await call(client, 'format', { dry_run: true })).structuredContent!['changed']).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('graph gives the json graph and mermaid text', async () => {
    const json = await call(repo, 'graph', { path: 'examples/news', format: 'json' });
    expect(json.structuredContent!['graph'].trees[0].nodes.length).toBeGreaterThanOrEqual(3);
    const mermaid = await call(repo, 'graph', { path: 'examples/news' });
    expect(mermaid.structuredContent!['text']).toMatch(/^flowchart/);
  });

  it('explain gives the registry entry; an unknown code is a tool error with suggestions', async () => {
    const r = await call(repo, 'explain', { code: 'method.concept_unresolved' });
    expect(r.structuredContent).toMatchObject({ code: 'method.concept_unresolved', severity: 'error', retry: false, params: expect.arrayContaining([expect.objectContaining({ name: 'concept' })]) });
    expect(r.structuredContent!['advice'].client.length).toBeGreaterThan(0);
    expect(r.structuredContent!['example']).toMatchObject({ file: 'main.mthds', fault: expect.stringContaining('output = "Sumary"'), fixed: expect.stringContaining('output = "Summary"'), context: [] });
    expect(r.content[0]!.text).toContain('**Example:**');
    expect(r.content[0]!.text).toContain('output = "Sumary"');
    const none = await call(repo, 'explain', { code: 'request.pipe_not_found' });
    expect(none.structuredContent).not.toHaveProperty('example');
    expect(none.content[0]!.text).not.toContain('Example');
    const bad = await call(repo, 'explain', { code: 'method.concept_unresolvd' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/Unknown code 'method\.concept_unresolvd'\. Did you mean method\.concept_unresolved/);
  });

  it("explain's examples, checked by the check tool: the fault on disk raises the code, the fix sent as an unsaved buffer nothing", async () => {
    for (const code of ['method.pipe_unresolved', 'method.input_unused', 'method.optional_unhandled']) {
      const example = (await call(repo, 'explain', { code })).structuredContent!['example'] as { file: string; fault: string; fixed: string; context: Array<{ path: string; text: string }> };
      const dir = mkdtempSync(path.join(tmpdir(), 'mthds-mcp-example-'));
      for (const f of [{ path: example.file, text: example.fault }, ...example.context]) writeFileSync(path.join(dir, f.path), f.text);
      const client = await connect(dir);
      try {
        const codes = async (files?: Array<{ path: string; text: string }>): Promise<string[]> => {
          const r = await call(client, 'check', files ? { files } : {});
          expect(r.isError, r.content[0]?.text).toBeFalsy();
          return (r.structuredContent!['findings'] as Array<{ code: string }>).map((f) => f.code);
        };
        expect(await codes(), code).toEqual([code]);
        expect(await codes([{ path: example.file, text: example.fixed }]), code).toEqual([]);
      } finally {
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);

  it("explain's example of a code only a run raises, reproduced with the run tool; a code no file shows says why", async () => {
    const r = await call(repo, 'explain', { code: 'method.not_runnable' });
    const example = r.structuredContent!['example'] as { file: string; fault: string; fixed: string; run: { pipe: string; inputs: Record<string, unknown> } };
    expect(r.content[0]!.text).toContain('Shown by a run');
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-mcp-example-'));
    const client = await connect(dir);
    try {
      const runOf = async (text: string): Promise<{ isError: boolean; text: string }> => {
        writeFileSync(path.join(dir, example.file), text);
        const ran = await call(client, 'run', { path: example.file, pipe: example.run.pipe, inputs: example.run.inputs });
        return { isError: ran.isError === true, text: ran.content[0]?.text ?? '' };
      };
      // The check passes the fault; the run refuses it with the code, and runs the fixed file.
      writeFileSync(path.join(dir, example.file), example.fault);
      const checked = await call(client, 'check', {});
      expect(checked.isError, checked.content[0]?.text).toBeFalsy();
      expect(checked.structuredContent!['findings']).toEqual([]);
      const refused = await runOf(example.fault);
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('method.not_runnable');
      expect((await runOf(example.fixed)).isError).toBe(false);
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const none = await call(repo, 'explain', { code: 'method.changed_concurrently' });
    expect(none.structuredContent).not.toHaveProperty('example');
    expect(none.structuredContent!['no_example']).toMatch(/race/);
    expect(none.content[0]!.text).toContain(`No file example: ${String(none.structuredContent!['no_example'])}`);
  }, 60_000);

  it('pipe_io describes the main pipe by the standard, and a named one', async () => {
    const r = await call(repo, 'pipe_io', { path: 'examples/news/news.mthds' });
    expect(r.structuredContent!['pipe_ref']).toBe('news.brief_article');
    expect(r.structuredContent!['pipe_io_contracts']['news.brief_article'].inputs.article).toMatchObject({ concept_ref: 'news.Article', presence: 'plain', multiplicity: 'single' });
    expect(r.structuredContent!['input_form']['news.brief_article'].fields[0]).toMatchObject({ kind: 'prose', name: 'article', refines: ['native.Text'], gating: true });
    expect(r.structuredContent!['output_form']['news.brief_article'].field).toMatchObject({ kind: 'object', name: 'output', concept_ref: 'news.Briefing' });
    expect(r.content[0]!.text).toContain('article: news.Article — prose');
    const named = await call(repo, 'pipe_io', { path: 'examples/news', pipe: 'write_briefing' });
    expect(Object.keys(named.structuredContent!['input_form'])).toEqual(['news.write_briefing']);
    const missing = await call(repo, 'pipe_io', { path: 'examples/news', pipe: 'write_briefin' });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/Did you mean news\.write_briefing/);
  });

  it('run executes on the built-in runner with its mock provider, contents alone or with their concept', async () => {
    const r = await call(repo, 'run', { path: 'examples/news', inputs: { article: { text: 'The tide came in.' } } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ pipe_ref: 'news.brief_article', pipeline_run_id: expect.any(String) });
    expect(JSON.stringify(r.structuredContent!['pipe_output'])).toContain('headline');
    const explicit = await call(repo, 'run', { path: 'examples/news', pipe: 'news.summarize_article', inputs: { article: { concept: 'news.Article', content: { text: 'x' } } } });
    expect(explicit.isError).toBeFalsy();
    const noInputs = await call(repo, 'run', { path: 'examples/news' });
    expect(noInputs.isError).toBe(true);
    const wrong = await call(repo, 'run', { path: 'examples/news', inputs: { articel: 'x' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toMatch(/takes no input 'articel'\. It takes: article/);
  }, 60_000);

  it('run goes to the runner --runner names, with the token of --token-env', async () => {
    const runner = await startRunner({ host: '127.0.0.1', port: 0, auth: { env: false, tokens: [{ token: 'secret-token-1' }] }, log: () => undefined, request_log: () => undefined });
    try {
      const client = await connect(REPO, ['--runner', runner.url, '--token-env', 'MCP_TEST_TOKEN'], { MCP_TEST_TOKEN: 'secret-token-1' });
      const ok = await call(client, 'run', { path: 'examples/news', inputs: { article: { text: 'x' } } });
      await client.close();
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent!['pipe_ref']).toBe('news.brief_article');
      const anonymous = await connect(REPO, ['--runner', runner.url]);
      const refused = await call(anonymous, 'run', { path: 'examples/news', inputs: { article: { text: 'x' } } });
      await anonymous.close();
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/^auth\./);
    } finally {
      await runner.close();
    }
  }, 60_000);

  it('answers bad arguments with tool errors and keeps serving', async () => {
    const missing = await call(repo, 'check', { paths: ['no/such/folder'] });
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/No such file or folder: no\/such\/folder/);
    const wrongType = await call(repo, 'graph', { path: 42 });
    expect(wrongType.isError).toBe(true);
    const noPath = await call(repo, 'pipe_io', {});
    expect(noPath.isError).toBe(true);
    const unknownCode = await call(repo, 'fix', { codes: ['nope.nope'], dry_run: true });
    expect(unknownCode.isError).toBe(true);
    expect((await call(repo, 'explain', { code: 'method.syntax' })).isError).toBeFalsy();
  });
});

describe("the agent configurations of docs/agents.md", () => {
  it('start `mthds mcp`: Codex (TOML), Cursor and other mcpServers clients (JSON), Claude Code (the marketplace)', () => {
    const section = readFileSync(path.join(REPO, 'docs/agents.md'), 'utf8');
    expect(section.startsWith('# Agents\n')).toBe(true);
    const block = (lang: string): string => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)![1]!;
    expect((parseToml(block('toml')) as { mcp_servers: Record<string, unknown> }).mcp_servers['mthds']).toEqual({ command: 'mthds', args: ['mcp'] });
    expect((JSON.parse(block('json')) as { mcpServers: Record<string, unknown> }).mcpServers['mthds']).toEqual({ command: 'mthds', args: ['mcp'] });
    const plugin = JSON.parse(readFileSync(path.join(REPO, 'editors/claude-code/.claude-plugin/plugin.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(plugin.mcpServers['mthds']).toEqual({ command: 'mthds', args: ['mcp'] });
    const marketplace = JSON.parse(readFileSync(path.join(REPO, '.claude-plugin/marketplace.json'), 'utf8')) as { name: string; plugins: Array<{ name: string; source: string }> };
    expect(block('sh')).toContain(`claude plugin install mthds@${marketplace.name}`);
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: 'mthds', source: './editors/claude-code' })]);
  });
});
