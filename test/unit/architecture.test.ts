// The import rules of .dependency-cruiser.cjs (no circles; layers point downwards only, as
// ARCHITECTURE.md draws them), checked with dependency-cruiser over the real sources, and shown to
// catch what they forbid on a small tree written for it.

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/files.js';

const DEPCRUISE = path.join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

function violations(cwd: string): Violation[] {
  const r = spawnSync(process.execPath, [DEPCRUISE, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', 'server/src', 'client/src'], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  expect(r.stdout, r.stderr).not.toBe('');
  return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('import rules', () => {
  it('the sources break none (no import circles, no upward imports)', () => {
    const found = violations(REPO).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`);
    expect(found).toEqual([]);
  });

  it('refuse circles, upward imports, and the client reaching into the server', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-layers-'));
    temp.push(dir);
    const files: Record<string, string> = {
      'server/src/syntax/document.ts': "import { rule } from '../check/rule.js';\nexport const doc = rule;\n",
      'server/src/check/rule.ts': "import { doc } from '../syntax/document.js';\nexport const rule = 1;\nexport const again = doc;\n",
      'server/src/cli/check.ts': "import { sarif } from './reportFormats.js';\nexport const check = sarif;\n",
      'server/src/cli/reportFormats.ts': "import type { check } from './check.js';\nexport const sarif = 2;\nexport type C = typeof check;\n",
      'server/src/language/model.ts': "import { serve } from '../runner/serve.js';\nexport const model = serve;\n",
      'server/src/runner/serve.ts': 'export const serve = 3;\n',
      'server/src/lsp/server.ts': "import { svg } from '../ide/graphSvg.js';\nexport const lsp = [4, svg];\n",
      'server/src/ide/graphSvg.ts': 'export const svg = 5;\n',
      'server/src/ide/hover.ts': "import path from 'node:path';\nimport { MarkupKind } from 'vscode-languageserver';\nimport { session } from '../workspace/session.js';\nexport const hover = [path, MarkupKind, session];\n",
      'server/src/workspace/session.ts': 'export const session = 6;\n',
      'client/src/extension.ts': "import { lsp } from '../../server/src/lsp/server.js';\nimport { svg } from '../../server/src/ide/graphSvg.js';\nexport const x = [lsp, svg];\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    copyFileSync(path.join(REPO, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['server/src', 'client/src'] }));
    const found = violations(dir);
    // A circle is reported once, from one of its modules.
    const circles = found.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, v.to].sort().join(' <-> '));
    expect(circles.sort()).toEqual(['server/src/check/rule.ts <-> server/src/syntax/document.ts', 'server/src/cli/check.ts <-> server/src/cli/reportFormats.ts']);
    expect(new Set(found.filter((v) => v.rule.name !== 'no-circular').map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`))).toEqual(
      new Set([
        'syntax-not-above: server/src/syntax/document.ts -> server/src/check/rule.ts',
        'language-not-above: server/src/language/model.ts -> server/src/runner/serve.ts',
        'client-only-pure-server-drawing: client/src/extension.ts -> server/src/lsp/server.ts',
        // ide/ speaks no LSP, runs without Node, and works on what it is given (no session, no disk).
        'ide-no-node-builtin: server/src/ide/hover.ts -> path',
        'ide-not-above: server/src/ide/hover.ts -> server/src/workspace/session.ts',
        'ide-speaks-no-lsp: server/src/ide/hover.ts -> vscode-languageserver',
        // lsp/ reaches ide/ through its facade only.
        'lsp-through-ide-facade: server/src/lsp/server.ts -> server/src/ide/graphSvg.ts',
      ]),
    );
    // The command-line form the README documents exits non-zero on them.
    expect(() => execFileSync(process.execPath, [DEPCRUISE, '--config', '.dependency-cruiser.cjs', 'server/src', 'client/src'], { cwd: dir, stdio: 'pipe' })).toThrow();
  });
});
