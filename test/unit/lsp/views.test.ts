// A view of an open document whose buffer runs ahead of the last check is made on a tree derived
// from that check's; once a check has caught up with the buffers, the derived tree (and with it the
// whole tree of the older check, every bundle replaced since) is let go at the next view, rather
// than kept until some other buffer runs ahead.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bundleIndex, bundleOfFile, type MethodTree } from '../../../server/src/language/tree.js';
import { Views } from '../../../server/src/lsp/views.js';
import { Session } from '../../../server/src/workspace/session.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const bundle = (pipe: string): string => `domain = "d"\ndescription = "Probe"\n\n[pipe.${pipe}]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Text"\nprompt = "x"\n`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('views', () => {
  it('let go of the older check a derived tree was made from, once a check caught up', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mthds-views-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    const a = path.join(dir, 'a.mthds');
    const b = path.join(dir, 'b.mthds');
    writeFileSync(a, bundle('first'));
    writeFileSync(b, bundle('second'));
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    session.scanWorkspace();
    const views = new Views(
      () => session,
      (file) => session.currentCheck(file),
    );
    const older = ((): WeakRef<object> => {
      const check = session.currentCheck(a);
      session.setDocument(a, bundle('typed'));
      // The buffer runs ahead of the check: the view is made on a derived tree.
      const view = views.viewOf(a)!;
      expect(view.tree).not.toBe(check.tree);
      expect(view.bundle.pipes.map((p) => p.code)).toEqual(['typed']);
      return new WeakRef(check.tree!);
    })();
    // Another file changes on disk, and the check catches up with the buffer.
    writeFileSync(b, bundle('changed'));
    session.diskChanged(b, 'changed');
    const current = session.currentCheck(a);
    const view = views.viewOf(a)!;
    expect(view.tree).toBe(current.tree);
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(older.deref()).toBeUndefined();
  });

  it('give a derived tree the index of files of the check it was made from, equal to one made afresh', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mthds-views-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    const files = ['a', 'b', 'c', 'd'].map((n) => path.join(dir!, `${n}.mthds`));
    files.forEach((f, i) => writeFileSync(f, bundle(`p${i}`)));
    // A file open in the editor only (not yet on disk): the check does not have it.
    const unsaved = path.join(dir, 'e.mthds');
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    session.scanWorkspace();
    const views = new Views(
      () => session,
      (file) => session.currentCheck(file),
    );
    const fresh = (tree: MethodTree): Map<string, number> => new Map(tree.bundles.map((b, i) => [b.file, i]));
    const step = fc.record({ file: fc.integer({ min: 0, max: 4 }), text: fc.constantFrom('typed', 'other', 'p0', 'again'), check: fc.boolean() });
    let shared = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        for (const s of steps) {
          const file = s.file === 4 ? unsaved : files[s.file]!;
          session.setDocument(file, bundle(s.text));
          if (s.check) session.currentCheck(files[0]!);
          const view = views.viewOf(file)!;
          const base = session.lastCheck(session.treeOf(file).key)!.tree!;
          expect(view.bundle.pipes.map((p) => p.code)).toEqual([s.text]);
          expect(new Map(bundleIndex(view.tree))).toEqual(fresh(view.tree));
          // The check's bundles, each open buffer at its current text, the file the check lacks last.
          const inBase = base.bundles.some((b) => b.file === file);
          expect(view.tree.bundles.length).toBe(base.bundles.length + (inBase ? 0 : 1));
          view.tree.bundles.forEach((b, i) => {
            if (i < base.bundles.length) expect(b.file).toBe(base.bundles[i]!.file);
            if (session.isOpen(b.file)) expect(b.doc.text).toBe(session.textOf(b.file));
            else expect(b).toBe(base.bundles[i]);
          });
          expect(view.findings !== undefined).toBe(inBase && base.bundles.find((b) => b.file === file)!.doc.text === session.textOf(file));
          // Asked again: the same derived tree.
          expect(views.viewOf(file)!.tree).toBe(view.tree);
          for (const b of view.tree.bundles) expect(bundleOfFile(view.tree, b.file)).toBe(b);
          // The check's files in its order: its index, not another one.
          if (view.tree !== base && view.tree.bundles.length === base.bundles.length) {
            expect(bundleIndex(view.tree)).toBe(bundleIndex(base));
            shared += 1;
          }
        }
      }),
      { numRuns: 40 },
    );
    expect(shared).toBeGreaterThan(0);
  });
});
