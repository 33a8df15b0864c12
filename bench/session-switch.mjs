// The branch switch of bench/branchSwitch.mjs in process, as CPU time (`node bench/session-switch.mjs`
// after a build): the editor session (workspace/session.ts) over the same 2,000 bundles, checked
// once, then the four switches (to the branch, back, twice), each told as the 1,000 files changed
// on disk and followed by the session's check of the tree. The process's CPU time per step says
// what the update costs whatever else runs on the machine (the language server benchmark's wall
// times grow with the load); the cold check is the first one. MTHDS_LIB: another build's
// `server/dist/lib.js` (the base), SWITCH_COUNT: the bundles (default 2,000).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renamedSet, switchBundle, writeSwitchPackage } from './generate.mjs';

const { Session } = await import(process.env.MTHDS_LIB ? pathToFileURL(path.resolve(process.env.MTHDS_LIB)).href : '../server/dist/lib.js');
const count = Number(process.env.SWITCH_COUNT ?? 2000);
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-session-switch-'));
try {
  const files = writeSwitchPackage(dir, count);
  const changed = files.map((_, i) => i).filter(renamedSet);
  const session = new Session({ folders: [dir] });
  const unresolved = (ids) => {
    let n = 0;
    for (const id of ids) for (const list of session.check(id).findings.values()) for (const f of list) if (f.code === 'method.concept_unresolved') n++;
    return n;
  };
  let t = performance.now();
  let c = cpu();
  const ids = session.scanWorkspace();
  const first = unresolved(ids);
  console.log(`branch switch in process, ${count} bundles (${process.env.MTHDS_LIB ?? 'this build'}): cold check ${(cpu() - c).toFixed(0)} ms CPU, ${(performance.now() - t).toFixed(0)} ms wall, concept_unresolved ${first}; ${load()}`);
  for (const renamed of [true, false, true, false]) {
    for (const i of changed) {
      writeFileSync(files[i], switchBundle(i, count, renamed));
      session.diskChanged(files[i], 'changed');
    }
    t = performance.now();
    c = cpu();
    const n = unresolved(ids);
    console.log(`  ${renamed ? 'to the branch' : 'back'}: ${(cpu() - c).toFixed(0)} ms CPU, ${(performance.now() - t).toFixed(0)} ms wall, concept_unresolved ${n}; ${load()}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
