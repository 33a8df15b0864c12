// The start-up warm-up of the keystroke path (lsp/warmUp.ts): its bundles come from the language
// facts and hold every pipe type; it runs in slices; and it leaves the server's own session as it
// was (state, caches, findings) and changes no answer a check gives afterwards; after a start-up
// check, it runs only while no message comes.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBundle } from '../../../server/src/language/buildBundle.js';
import { PIPE_TYPES } from '../../../server/src/language/spec/pipeTypes.js';
import { parseToml } from '../../../server/src/syntax/document.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { warmUp, warmUpEdits, warmUpWhenQuiet, WARM_UP_BUNDLES } from '../../../server/src/lsp/warmUp.js';
import { sampleBundle } from '../../../server/src/language/sampleBundles.js';
import { check } from '../../helpers/tree.js';
import { Session } from '../../../server/src/workspace/session.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const USES = 'domain = "d"\ndescription = "Uses"\n\n[pipe.go]\ntype = "PipeCompose"\ndescription = "Go"\ninputs = { text = "Text" }\noutput = "Note"\ntemplate = "$text"\n';
const DECLARES = 'domain = "d"\ndescription = "Declares"\n\n[concept.Note]\ndescription = "A note"\n';

function workspace(): { dir: string; uses: string; declares: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-warm-up-test-'));
  writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
  writeFileSync(path.join(dir, 'uses.mthds'), USES);
  writeFileSync(path.join(dir, 'declares.mthds'), DECLARES);
  return { dir, uses: path.join(dir, 'uses.mthds'), declares: path.join(dir, 'declares.mthds') };
}

/** A session on the workspace with `uses.mthds` open and edited (its `Note` reference broken), checked. */
function editedSession(ws: ReturnType<typeof workspace>): Session {
  const session = new Session({ fs: nodeFileSystem, folders: [ws.dir] });
  session.scanWorkspace();
  session.setDocument(ws.uses, USES.replace('output = "Note"', 'output = "Nota"'));
  session.check(session.treeOf(ws.uses));
  return session;
}

const plain = (findings: ReadonlyMap<string, readonly unknown[]>): unknown => JSON.parse(JSON.stringify([...findings]));

/** What a session holds about the open document and its tree (all a warm-up could have changed). */
function stateOf(session: Session, file: string): Record<string, unknown> {
  const key = session.treeOf(file).key;
  return {
    open: session.openFiles(),
    trees: session.treeIds(),
    dirty: session.dirtyTrees(),
    checks: session.checksOf(key),
    text: session.textOf(file),
    lineStarts: [...session.lineStartsOf(file)],
    findings: plain(session.lastCheck(key)!.findings),
    members: session.members(session.treeOf(file)),
  };
}

describe('the warm-up of the keystroke path', () => {
  it('types in valid sample bundles of three top shapes: every pipe type, concepts with structures, templates', () => {
    expect(new Set(WARM_UP_BUNDLES.map((b) => `${b.mainPipe}/${b.systemPrompt}`)).size).toBe(3);
    for (const options of WARM_UP_BUNDLES) {
      const text = sampleBundle(options);
      const parsed = parseToml(text);
      expect(parsed.errors).toEqual([]);
      const bundle = buildBundle('warm_up.mthds', parsed);
      const types = new Set(bundle.pipes.map((p) => p.type?.value));
      for (const spec of PIPE_TYPES) expect(types, spec.name).toContain(spec.name);
      expect(bundle.concepts.some((c) => c.structure !== undefined && c.structure.length >= 5)).toBe(true);
      expect(text).toMatch(/\$\w+/);
      // Valid: what the warm-up checks is the path of a bundle being written, not of a broken one.
      expect(check(text)).toEqual([]);
    }
  });

  it('types at places that matter: a description, a concept reference (broken, then mended), a named pipe\'s declaration, and ends where it began', () => {
    const text = sampleBundle(WARM_UP_BUNDLES[0]!);
    let doc = TextDocument.create('file:///warm_up.mthds', 'mthds', 1, text);
    const seen: string[][] = [];
    for (const [i, edit] of warmUpEdits(text, doc).entries()) {
      doc = TextDocument.update(doc, [edit], i + 2);
      seen.push([...new Set(check(doc.getText()).map((f) => f.code))]);
    }
    expect(doc.getText()).toBe(text);
    // Eight keystrokes in a description: nothing found.
    expect(seen.slice(0, 8).every((codes) => codes.length === 0)).toBe(true);
    expect(seen[8]).toContain('method.concept_unresolved');
    expect(seen[9]).toEqual([]);
    expect(seen[10]).toContain('method.pipe_unresolved');
    expect(seen[11]).toEqual([]);
  });

  it('leaves the server session untouched and changes no later answer', { timeout: 120_000 }, async () => {
    const ws = workspace();
    const before = plain(editedSession(ws).currentCheck(ws.uses).findings);
    const session = editedSession(ws);
    const key = session.treeOf(ws.uses).key;
    const check = session.lastCheck(key)!;
    const findings = check.findings;
    const snapshot = stateOf(session, ws.uses);
    expect(JSON.stringify(snapshot.findings)).toContain('method.concept_unresolved');

    let pauses = 0;
    // A budget no run reaches: the warm-up ends after its keystrokes, whatever the machine's load.
    const report = await warmUp(600_000, async () => {
      pauses += 1;
      await turn();
    }, 24);
    expect(report.keystrokes).toBe(24);
    // In slices: the event loop was let through between them.
    expect(pauses).toBeGreaterThan(1);

    // The same state, the same objects (nothing replaced, nothing re-checked or marked).
    expect(session.lastCheck(key)).toBe(check);
    expect(session.lastCheck(key)!.findings).toBe(findings);
    expect(stateOf(session, ws.uses)).toEqual(snapshot);
    // The next keystroke's check, and a fresh session's, find what they found before the warm-up.
    session.setDocument(ws.uses, USES.replace('output = "Note"', 'output = "Nota"'));
    expect(plain(session.check(session.treeOf(ws.uses)).findings)).toEqual(before);
    expect(plain(editedSession(ws).currentCheck(ws.uses).findings)).toEqual(before);
  });
});

describe('the warm-up after a start-up check', () => {
  it('runs no slice while messages keep coming, then runs its budget once they stop', async () => {
    let dispatched = 0;
    let slices = 0;
    const pause = async (): Promise<void> => {
      slices += 1;
      await turn();
    };
    let report: { keystrokes: number; ms: number } | undefined;
    const started = performance.now();
    void warmUpWhenQuiet(150, pause, () => dispatched, 'markdown', 100).then((r) => (report = r));
    // A message every 30 ms for 400 ms: never 100 ms of quiet.
    const busyUntil = performance.now() + 400;
    while (performance.now() < busyUntil) {
      dispatched += 1;
      await new Promise((r) => setTimeout(r, 30));
      expect(report).toBeUndefined();
    }
    // The one pause before the first wait for quiet, and no slice since.
    expect(slices).toBe(1);
    while (report === undefined) await new Promise((r) => setTimeout(r, 20));
    expect(report.keystrokes).toBeGreaterThan(0);
    // Its budget counted the time it ran, not the waits: it ran about 150 ms after 400 ms of messages and 100 of quiet.
    expect(report.ms).toBeGreaterThanOrEqual(150);
    expect(report.ms).toBeLessThan(performance.now() - started - 400);
  }, 30_000);
});
