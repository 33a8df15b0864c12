// The language server's check of a keystroke, in process (`npm run bench:session`, builds first):
// the editor session (workspace/session.ts) over one package of COUNT bundles (default 5,000, as
// `bench/lsp-workspace.mjs` one-package), checked once, then KEYSTROKES (default 400) edits of one
// open bundle, each followed by the check the server runs for it. CPU time per check (process
// CPU, garbage collection included) says what a keystroke costs whatever else runs on the machine;
// latencies are printed with the load average. Two kinds of typing:
// - in a description (every tenth keystroke breaks a concept reference, the next repairs it);
// - in a pipe's name (a declaration changes at every keystroke).
// Then TREE_EDITS (default 100) edits of each kind that changes what the tree-wide rules read, on
// the open bundle given a sequence first: a step's pipe switched between a pipe of its own bundle
// and one of another bundle of its domain (the call graph), the `domain` line switched to another
// existing domain and back, and a `main_pipe` line added and removed.

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Session, nodeFileSystem } from '../server/dist/lib.js';
import { writeOnePackage } from './generate.mjs';
import { percentile } from './lspClient.mjs';

const COUNT = Number(process.env.COUNT ?? 5000);
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 400);
const TREE_EDITS = Number(process.env.TREE_EDITS ?? 100);

const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-session-'));
const written = writeOnePackage(dir, COUNT);
// A clean bundle in the middle of the workspace, as bench/lsp-workspace.mjs opens.
const openIndex = Math.floor(COUNT / 2) + 1;
const open = { file: written.files[openIndex], text: written.texts[openIndex] };

const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;
const fmt = (n) => n.toFixed(2);

try {
  const session = new Session({ fs: nodeFileSystem, folders: [dir] });
  let t = performance.now();
  for (const id of session.scanWorkspace()) session.check(id);
  console.log(`session, one package of ${COUNT} bundles; node ${process.version}; ${load()}`);
  console.log(`  first check: ${fmt(performance.now() - t)} ms`);
  const id = session.setDocument(open.file, open.text);
  t = performance.now();
  session.check(id);
  console.log(`  open: ${fmt(performance.now() - t)} ms`);

  const descAt = open.text.indexOf('description = "Generated pipe') + 'description = "'.length;
  const outAt = open.text.indexOf('output = "B', descAt) + 'output = "'.length;
  const nameAt = open.text.indexOf('[pipe.') + '[pipe.'.length;
  const kinds = {
    'in a description': (k, state) => {
      const shift = state.typed ? 1 : 0;
      if (k % 10 === 9) return state.text.slice(0, outAt + shift) + 'X' + state.text.slice(outAt + shift + 1);
      if (k % 10 === 0 && k > 0) return state.text.slice(0, outAt + shift) + 'B' + state.text.slice(outAt + shift + 1);
      state.typed = !state.typed;
      return state.typed ? state.text.slice(0, descAt) + 'x' + state.text.slice(descAt) : state.text.slice(0, descAt) + state.text.slice(descAt + 1);
    },
    "in a pipe's name": (k) => (k % 2 === 0 ? open.text.slice(0, nameAt) + 'z' + open.text.slice(nameAt) : open.text),
  };
  for (const [kind, next] of Object.entries(kinds)) {
    const state = { text: open.text, typed: false };
    const times = [];
    const cpu = process.cpuUsage();
    for (let k = 0; k < KEYSTROKES; k++) {
      state.text = next(k, state);
      session.setDocument(open.file, state.text);
      const t0 = performance.now();
      session.check(id);
      times.push(performance.now() - t0);
    }
    const used = process.cpuUsage(cpu);
    console.log(`  keystroke check, ${kind} (${KEYSTROKES}): CPU ${fmt((used.user + used.system) / 1000 / KEYSTROKES)} ms per check; p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(percentile(times, 99))} ms`);
    session.setDocument(open.file, open.text);
    session.check(id);
  }
  // Edits the tree-wide rules read: the bundle gets a sequence calling its own pipes first.
  const own = /\[pipe\.(b\d+_step_)/.exec(open.text)[1];
  const other = own.replace(/^b(\d+)/, (_m, n) => `b${Number(n) + 100 < COUNT ? Number(n) + 100 : Number(n) - 100}`);
  const domain = /^domain = "([^"]*)"/m.exec(open.text)[1];
  const otherDomain = `d${(Number(domain.slice(1)) + 1) % 100}`;
  const base = `${open.text}\n[pipe.${own}seq]\ntype = "PipeSequence"\ndescription = "Sequence"\ninputs = { text = "Text" }\noutput = "Text"\nsteps = [\n  { pipe = "${own}0", result = "first" },\n  { pipe = "${own}1", result = "second" },\n]\n`;
  const treeKinds = {
    'a call-graph edit': (k) => (k % 2 === 0 ? base.replace(`pipe = "${own}1"`, `pipe = "${other}1"`) : base),
    'a domain line': (k) => (k % 2 === 0 ? base.replace(`domain = "${domain}"`, `domain = "${otherDomain}"`) : base),
    'a main_pipe line': (k) => (k % 2 === 0 ? base.replace('\n\n', `\nmain_pipe = "${own}0"\n\n`) : base),
  };
  session.setDocument(open.file, base);
  session.check(id);
  for (const [kind, next] of Object.entries(treeKinds)) {
    const times = [];
    const cpu = process.cpuUsage();
    for (let k = 0; k < TREE_EDITS; k++) {
      session.setDocument(open.file, next(k));
      const t0 = performance.now();
      session.check(id);
      times.push(performance.now() - t0);
    }
    const used = process.cpuUsage(cpu);
    console.log(`  tree edit check, ${kind} (${TREE_EDITS}): CPU ${fmt((used.user + used.system) / 1000 / TREE_EDITS)} ms per check; p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(percentile(times, 99))} ms`);
    session.setDocument(open.file, base);
    session.check(id);
  }
  console.log(`  ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
