// Start-up on a cross-referenced workspace (issue item 8): the branch-switch workspace of
// bench/branchSwitch.mjs (one package, 100 domains, every bundle calling a pipe of its domain and
// reading concepts of two other domains, one in four expecting a concept that does not exist) at
// COUNT bundles (default 5,000: about 1,250 findings). Prints the time from spawning the language
// server to the end of its workspace check (the end of its progress; and when its last diagnostics
// arrived, before the end of start-up's own work), its memory then (RSS and peak), and beside it the
// cold `mthds check` of the same folder (wall time of the process), with the load average.
// Targets: start-up no slower than the cold check, RSS at most 350 MB. MTHDS_SERVER: another build.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { targetLine } from './targets.mjs';
import { writeSwitchPackage } from './generate.mjs';
import { startServer, stopServer } from './lspClient.mjs';
import { memoryOf } from './processMemory.mjs';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/bin/mthds.js');
const COUNT = Number(process.env.COUNT ?? 5000);
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-xref-'));
try {
  writeSwitchPackage(dir, COUNT);
  const t = performance.now();
  const cold = spawnSync(process.execPath, [CLI, 'check', '--format', 'json', path.join(dir, 'all')], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const coldMs = performance.now() - t;
  const findings = (JSON.parse(cold.stdout || '{}').findings ?? []).length;
  let lastPublished = NaN;
  const server = await startServer(dir, { capabilities: { window: { workDoneProgress: true }, textDocument: { publishDiagnostics: {} } }, onPublish: () => (lastPublished = performance.now()) });
  await server.checked;
  const startupMs = performance.now() - server.spawnedAt;
  const publishedMs = lastPublished - server.spawnedAt;
  const memory = memoryOf(server.child.pid);
  await stopServer(server);
  const targets = targetLine('start-up no slower than the cold check, RSS', [
    ['start-up / cold check', startupMs / coldMs, 1, 'times'],
    ['RSS', memory.rss, 350, 'MB'],
  ]);
  console.log(
    `cross-referenced workspace, ${COUNT} bundles (${findings} findings; ${process.env.MTHDS_SERVER ?? 'this build'}): language server start-up to the end of the workspace check ${(startupMs / 1000).toFixed(2)} s (its diagnostics all published at ${(publishedMs / 1000).toFixed(2)} s, before what the documents share is made and the start-up collection has ended), RSS ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB); cold mthds check ${(coldMs / 1000).toFixed(2)} s; ${load()}`,
  );
  console.log(`  ${targets}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
