// The language server in a REAL Neovim (headless): test/e2e/neovim/check.lua opens the broken
// example, has the built server started, waits for the diagnostics, asks completion and
// definition when the server offers them, and writes a JSON report that this test reads. Twice:
// with the client started by the script, and with docs/editors.md's init.lua snippet for the installed
// Neovim, as written there (the server found on PATH as `mthds-language-server`, as docs/editors.md
// says). Neovim comes from Debian (`.ci/run` installs it when missing).

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlocks, readmeSnippet, REPO, runEditor, SERVER, serverOnPath } from './editors.js';

const SCRIPT = path.join(REPO, 'test/e2e/neovim/check.lua');

function nvimVersion(): string | undefined {
  try {
    return /NVIM v(\d+\.\d+\.\d+)/.exec(execFileSync('nvim', ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1];
  } catch {
    return undefined;
  }
}

const version = nvimVersion();
// CI installs Neovim and sets MTHDS_REQUIRE_NVIM: there a missing editor is a failure, not a skip.
if (!version && process.env['MTHDS_REQUIRE_NVIM']) throw new Error('nvim is required (MTHDS_REQUIRE_NVIM is set) but `nvim --version` did not answer');
if (!version) console.warn('neovim.test.ts: SKIPPED — `nvim` is not installed (CI installs Debian\'s neovim in .ci/run).');

interface Report {
  nvim: string;
  api: string;
  mode: 'direct' | 'config';
  filetype: string;
  steps: string[];
  error?: string;
  published: number;
  capabilities: string[];
  diagnostics: { code: string; line: number; col: number; severity: number; message: string }[];
  completion: { status: 'ok' | 'skipped' | 'error'; reason?: string; count?: number; labels?: string[] };
  definition: { status: 'ok' | 'skipped' | 'error'; reason?: string; locations?: { uri: string; line: number; character: number }[] };
  calls: { status: 'ok' | 'skipped' | 'error'; reason?: string; item?: string; outgoing?: { name: string; line: number }[] };
  implementation: { status: 'ok' | 'skipped' | 'error'; reason?: string; count?: number };
}

function runNeovim(file: string, result: string, home: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return runEditor('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${SCRIPT}`], {
    cwd: home,
    // Neovim's own state (LSP log, shada) stays in the temp folder.
    env: { ...process.env, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache'), XDG_STATE_HOME: path.join(home, 'state'), XDG_DATA_HOME: path.join(home, 'data'), MTHDS_NODE: process.execPath, MTHDS_SERVER: SERVER, MTHDS_FILE: file, MTHDS_RESULT: result, ...extraEnv },
    timeoutMs: 60_000,
  });
}

/** Runs check.lua on a fresh copy of the broken example; returns its report. */
async function check(extraEnv: Record<string, string> = {}): Promise<Report> {
  const home = mkdtempSync(path.join(tmpdir(), 'mthds-nvim-'));
  const file = path.join(home, 'broken.mthds');
  copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), file);
  const resultFile = path.join(home, 'result.json');
  const env = typeof extraEnv['MTHDS_CONFIG_TEXT'] === 'string' ? { ...extraEnv, MTHDS_CONFIG: path.join(home, 'init.lua') } : extraEnv;
  if (env['MTHDS_CONFIG']) writeFileSync(env['MTHDS_CONFIG'], extraEnv['MTHDS_CONFIG_TEXT']!);
  const { code, stderr } = await runNeovim(file, resultFile, home, env);
  expect(existsSync(resultFile), `no report; nvim exited ${code}\n${stderr}`).toBe(true);
  const report = JSON.parse(readFileSync(resultFile, 'utf8')) as Report;
  expect(report.error, stderr).toBeUndefined();
  return report;
}

function expectRegistryDiagnostics(report: Report): void {
  // The same findings, codes and positions as `mthds check` and the VS Code client get.
  const codes = report.diagnostics.map((d) => d.code);
  expect(codes).toEqual(expect.arrayContaining(['method.schema_violation', 'method.pipe_type_invalid', 'method.pipe_unresolved', 'method.concept_unresolved']));
  for (const c of codes) expect(c).toMatch(/^(method|mthdsls)\.[a-z_.]+$/);
  expect(report.diagnostics.find((d) => d.code === 'method.schema_violation')).toMatchObject({ line: 16, col: 0 });
  expect(report.diagnostics.find((d) => d.code === 'method.pipe_unresolved')!.message).toContain('suggest_recipe');
}

describe.skipIf(!version)(`Neovim ${version ?? '(missing)'} with the language server`, () => {
  it('shows the registry diagnostics of the broken example; completion and definition when offered', async () => {
    const report = await check();
    expect(report.nvim).toBe(version);
    const [major, minor] = report.nvim.split('.').map(Number) as [number, number];
    // vim.lsp.start came with 0.8; older Neovims (Debian 12 ships 0.7.2) use start_client.
    expect(report.api).toBe(major > 0 || minor >= 8 ? 'vim.lsp.start' : 'vim.lsp.start_client+buf_attach_client');
    expect(report.steps).toEqual(expect.arrayContaining(['opened', 'started', 'initialized', 'diagnostics', 'stopped']));
    expectRegistryDiagnostics(report);

    // Completion and definition may not be served yet: then the report says so, and so do we.
    for (const [name, part] of [
      ['completion', report.completion],
      ['definition', report.definition],
    ] as const) {
      if (part.status === 'skipped') console.log(`neovim.test.ts: ${name} SKIPPED — ${part.reason}`);
      expect(part.status, `${name}: ${part.reason ?? ''}`).not.toBe('error');
    }
    if (report.completion.status === 'ok') {
      console.log(`neovim.test.ts: completion ok — ${report.completion.count} items: ${(report.completion.labels ?? []).slice(0, 10).join(', ')}`);
      expect(report.capabilities).toContain('completionProvider');
      // In `pipe = "|sugest_recipe"` the pipes of the bundle are offered, the intended one among them.
      expect(report.completion.labels).toContain('suggest_recipe');
    }
    // The call hierarchy and implementation are served: Neovim asks them as any client would.
    expect(report.capabilities).toEqual(expect.arrayContaining(['callHierarchyProvider', 'implementationProvider']));
    expect(report.calls, report.calls.reason).toMatchObject({ status: 'ok', item: 'plan_dinner', outgoing: [{ name: 'suggest_recipe', line: 23 }] });
    expect(report.implementation, report.implementation.reason).toEqual({ status: 'ok', count: 0 });
    if (report.definition.status === 'ok') {
      console.log(`neovim.test.ts: definition ok — ${JSON.stringify(report.definition.locations)}`);
      // `Recipe` in `output = "Recipe"` is defined by [concept.Recipe] (line 5, 0-based 4).
      const locations = report.definition.locations ?? [];
      expect(locations.length).toBeGreaterThan(0);
      expect(locations[0]!.uri).toMatch(/broken\.mthds$/);
      expect(locations[0]!.line).toBe(4);
    }
  });

  it('parses every Lua snippet of docs/editors.md (the ones this Neovim cannot run included)', async () => {
    const blocks = readmeBlocks('lua');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-lua-'));
    const files = blocks.map((b, i) => {
      const f = path.join(dir, `snippet${i}.lua`);
      writeFileSync(f, b);
      return f;
    });
    const out = path.join(dir, 'parsed.txt');
    const lua = `local out = io.open(${JSON.stringify(out)}, 'w') for _, f in ipairs(${JSON.stringify(files).replace('[', '{').replace(/\]$/, '}')}) do local ok, err = loadfile(f) out:write(ok and 'ok' or ('FAIL ' .. tostring(err)), '\\n') end out:close()`;
    execFileSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `lua ${lua}`, '-c', 'qall!'], { timeout: 30_000, env: { ...process.env, XDG_STATE_HOME: dir, XDG_CACHE_HOME: dir } });
    expect(readFileSync(out, 'utf8').trim().split('\n')).toEqual(blocks.map(() => 'ok'));
  });

  it("works with docs/editors.md's init.lua for this Neovim, as written", async () => {
    const [major, minor] = version!.split('.').map(Number) as [number, number];
    const marker = major > 0 || minor >= 8 ? '-- init.lua: Neovim 0.8+' : '-- init.lua: Neovim 0.7';
    console.log(`neovim.test.ts: running the docs/editors.md snippet "${marker}" on Neovim ${version}`);
    const report = await check({ MTHDS_CONFIG_TEXT: readmeSnippet('lua', marker), PATH: `${serverOnPath()}${path.delimiter}${process.env['PATH'] ?? ''}` });
    expect(report.mode).toBe('config');
    expect(report.filetype).toBe('mthds');
    expect(report.steps).toEqual(expect.arrayContaining(['opened', 'started', 'initialized', 'diagnostics', 'stopped']));
    expectRegistryDiagnostics(report);
  });
});
