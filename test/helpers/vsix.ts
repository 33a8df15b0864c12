// Packages the VS Code extension as `npm run package` does (its vsce call, read from the script so
// that the two cannot drift), after the build that `npm test` and `npm run test:vscode` run first.

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');

/** Writes the .vsix to `out`; returns vsce's output. */
export async function packageVsix(out: string): Promise<string> {
  for (const built of ['client/dist/extension.js', 'client/dist/graph.js', 'server/dist/server.js', 'server/dist/stdinWorker.js']) {
    if (!existsSync(path.join(REPO, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  }
  const scripts = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const script = scripts['package'] ?? '';
  const vsceCall = script.split('&&').map((s) => s.trim()).find((s) => s.startsWith('vsce '));
  if (!vsceCall) throw new Error(`the package script does not call vsce: ${script}`);
  const vsce = path.join(REPO, 'node_modules/@vscode/vsce/vsce');
  const result = await run(process.execPath, [vsce, ...vsceCall.split(/\s+/).slice(1), '--out', out], { cwd: REPO, timeout: 180_000, env: { ...process.env, CI: 'true' } });
  return result.stdout + result.stderr;
}
