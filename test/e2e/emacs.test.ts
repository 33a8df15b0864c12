// The language server in a REAL Emacs with eglot (batch): test/e2e/emacs/check.el opens the
// broken example inside a package, starts eglot on the built server (found on PATH as
// `mthds-language-server`, as the mode's `eglot-server-programs` entry says), and writes a JSON
// report of what a user would see: Flymake's diagnostics, a completion, the hover, a quick fix and
// the diagnostics after it. The diagnostics are compared with `mthds check` run here. Twice: with
// the shipped editors/emacs/mthds-mode.el, and with docs/editors.md's init.el lines as written. Emacs
// and eglot come from Debian (`emacs-nox`, `elpa-eglot`; `.ci/run` installs them when missing).

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeBlocks, readmeSnippet, REPO, runEditor, serverOnPath } from './editors.js';
import { MARKDOWN_SYNTAX } from './lsp/harness.js';
import { runCli } from '../helpers/cli.js';

const SCRIPT = path.join(REPO, 'test/e2e/emacs/check.el');
const MODE = path.join(REPO, 'editors/emacs/mthds-mode.el');

/** The Emacs version when Emacs runs and eglot loads in it (as check.el loads it). */
function emacsWithEglot(): string | undefined {
  try {
    const out = execFileSync('emacs', ['--batch', '-q', '--eval', "(progn (unless (require 'eglot nil t) (package-initialize) (require 'eglot)) (princ emacs-version))"], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return /^\d+\.\d+/.test(out.trim()) ? out.trim() : undefined;
  } catch {
    return undefined;
  }
}

const version = emacsWithEglot();
// CI installs Emacs and eglot and sets MTHDS_REQUIRE_EMACS: there a missing editor is a failure, not a skip.
if (!version && process.env['MTHDS_REQUIRE_EMACS']) throw new Error('emacs with eglot is required (MTHDS_REQUIRE_EMACS is set) but `emacs --batch` could not load eglot');
if (!version) console.warn("emacs.test.ts: SKIPPED — `emacs` with eglot is not installed (CI installs Debian's emacs-nox and elpa-eglot in .ci/run).");

interface Diag {
  code: string;
  line: number;
  col: number;
  text: string;
}

interface Report {
  error?: string;
  emacs: string;
  eglot: string;
  mode: string;
  derived: boolean;
  project: string;
  'started-by': string;
  server: string;
  folders: string[];
  diagnostics: Diag[];
  completion: string[];
  'completion-doc': string | null;
  'hover-kind': string;
  hover: string;
  actions: string[];
  'fixed-line': string;
  'after-fix': Diag[];
  requests: string[];
  stopped: boolean;
}

/** `mthds check` of the package, as (code, 0-based line, column) of each finding of `file`. */
function checkFindings(pkg: string, file: string): Array<{ code: string; line: number; col: number }> {
  const r = runCli(['check', pkg, '--format', 'json'], { cwd: pkg });
  const report = JSON.parse(r.stdout) as { findings: Array<{ file: string; code: string; range: { start: { line: number; character: number } } }> };
  return report.findings.filter((f) => path.resolve(pkg, f.file) === file).map((f) => ({ code: f.code, line: f.range.start.line, col: f.range.start.character }));
}

const bySpot = <T extends { code: string; line: number; col: number }>(xs: readonly T[]): Array<{ code: string; line: number; col: number }> =>
  xs.map((d) => ({ code: d.code, line: d.line, col: d.col })).sort((a, b) => a.line - b.line || a.col - b.col || a.code.localeCompare(b.code));

function runEmacs(home: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return runEditor('emacs', ['--batch', '-q', '-l', SCRIPT], {
    cwd: home,
    env: { ...process.env, HOME: home, PATH: `${serverOnPath()}${path.delimiter}${process.env['PATH'] ?? ''}`, ...env },
    timeoutMs: 120_000,
  });
}


/** Runs check.el on the broken example in a fresh package; checks what every run must show. */
async function check(config: { init?: string } = {}): Promise<Report> {
  const home = mkdtempSync(path.join(tmpdir(), 'mthds-emacs-'));
  const pkg = path.join(home, 'recipes');
  mkdirSync(path.join(pkg, 'flows'), { recursive: true });
  writeFileSync(path.join(pkg, 'METHODS.toml'), '[package]\nname = "recipes"\naddress = "github.com/example/recipes"\nversion = "0.1.0"\ndescription = "Recipes"\n');
  const file = path.join(pkg, 'flows/broken.mthds');
  copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), file);
  const expected = checkFindings(pkg, file);
  const result = path.join(home, 'result.json');
  const env: Record<string, string> = { MTHDS_MODE: MODE, MTHDS_FILE: file, MTHDS_RESULT: result };
  if (config.init !== undefined) {
    env['MTHDS_INIT'] = path.join(home, 'init.el');
    writeFileSync(env['MTHDS_INIT'], config.init);
  }
  const { code, stderr } = await runEmacs(home, env);
  expect(existsSync(result), `no report; emacs exited ${code}\n${stderr}`).toBe(true);
  const report = JSON.parse(readFileSync(result, 'utf8')) as Report;
  expect(report.error, stderr).toBeUndefined();

  expect(report.mode).toBe('mthds-mode');
  expect(report.derived).toBe(true);
  expect(report.server).toBe('mthds-language-server');
  // The package is the project: METHODS.toml marks the root, one folder above the file.
  expect(report.project).toBe(`${pkg}/`);
  expect(report.folders).toEqual([pathToFileURL(pkg).href]);

  // Flymake shows what `mthds check` finds: codes, lines and columns.
  expect(expected.length).toBeGreaterThanOrEqual(5);
  expect(bySpot(report.diagnostics)).toEqual(bySpot(expected));
  for (const d of report.diagnostics) expect(d.text).toMatch(/^mthds \[(method|mthdsls)\.[a-z_.]+\]: /);

  // Completion in `pipe = "|sugest_recipe"`: the pipes of the bundle.
  expect(report.completion).toContain('suggest_recipe');
  // Its documentation (completionItem/resolve) in plain text too: eglot declares no documentation format.
  expect(report['completion-doc']).toContain('suggest_recipe(ingredients: Ingredient[]) -> Recipe');
  expect(report['completion-doc']).not.toMatch(MARKDOWN_SYNTAX);

  // Eglot without markdown-mode declares plain text: the hover of `Recipe` has no markdown in it.
  expect(report['hover-kind']).toBe('plaintext');
  expect(report.hover).not.toMatch(MARKDOWN_SYNTAX);
  expect(report.hover).toContain('Recipe — concept of domain recipes');
  expect(report.hover).toMatch(/^title +text +yes +The name of the dish$/m);
  expect(report.hover.split('\n').find((l) => l.startsWith('title'))!.indexOf('text')).toBe(report.hover.split('\n').find((l) => l.startsWith('servings'))!.indexOf('integer'));

  // The quick fix of `promt`, applied; the diagnostics follow the edit and match `mthds check` of the saved file.
  expect(report.actions[0]).toContain('prompt');
  expect(report['fixed-line']).toBe('prompt = "Suggest a recipe using $ingredients"');
  expect(report['after-fix'].map((d) => d.code)).not.toContain('method.schema_violation');
  expect(readFileSync(file, 'utf8')).toContain('\nprompt = "Suggest a recipe using $ingredients"\n');
  expect(bySpot(report['after-fix'])).toEqual(bySpot(checkFindings(pkg, file)));

  // Only requests eglot declared: watcher registration and configuration.
  for (const m of report.requests) expect(['client/registerCapability', 'workspace/configuration']).toContain(m);
  expect(report.stopped).toBe(true);
  return report;
}

describe.skipIf(!version)(`Emacs ${version ?? '(missing)'} with eglot and the language server`, () => {
  it('shows the diagnostics of `mthds check`, completes, hovers in plain text and applies a quick fix', async () => {
    const report = await check();
    console.log(`emacs.test.ts: Emacs ${report.emacs}, eglot ${report.eglot}: ${report.diagnostics.length} diagnostics, ${report['after-fix'].length} after the fix`);
    expect(report['started-by']).toBe('M-x eglot');
  }, 150_000);

  it("works with docs/editors.md's init.el lines, as written (eglot-ensure from the mode hook)", async () => {
    const init = readmeSnippet('elisp', ';; init.el: MTHDS with eglot').replace('/path/to/this/repo/editors/emacs', path.dirname(MODE));
    const report = await check({ init });
    expect(report['started-by']).toBe('eglot-ensure');
  }, 150_000);

  it('byte-compiles the mode without a warning', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-elc-'));
    const file = path.join(dir, 'mthds-mode.el');
    copyFileSync(MODE, file);
    const r = spawnSync('emacs', ['--batch', '-q', '--eval', '(setq byte-compile-error-on-warn t)', '-f', 'batch-byte-compile', file], { encoding: 'utf8', timeout: 60_000 });
    expect(existsSync(`${file}c`), r.stderr).toBe(true);
  });

  it('reads every Emacs Lisp snippet of docs/editors.md', () => {
    const blocks = readmeBlocks('elisp');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-elisp-'));
    for (const [i, block] of blocks.entries()) {
      const file = path.join(dir, `snippet${i}.el`);
      writeFileSync(file, block);
      // Every form read to the end of the file: balanced, no stray characters.
      const lisp = `(with-temp-buffer (insert-file-contents ${JSON.stringify(file)}) (emacs-lisp-mode) (let ((n 0) (pos (point-min))) (condition-case nil (while t (setq pos (point)) (read (current-buffer)) (setq n (1+ n))) (end-of-file (goto-char pos) (forward-comment (buffer-size)) (princ (if (eobp) (format "ok %d" n) (format "unreadable at %d" (point))))))))`;
      const out = execFileSync('emacs', ['--batch', '-q', '--eval', lisp], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
      expect(out, block).toMatch(/^ok [1-9]/);
    }
  });
});
