// Releasing the parsed documents of trees without an open document goes over every file of them:
// for a large workspace, in steps that the language server yields between (its update ends with it).

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const bundle = (i: number): string => `domain = "d"\ndescription = "Bundle ${i}"\n\n[concept.Note${i}]\ndescription = "A note"\n`;

describe('releasing closed trees', () => {
  it('runs in steps of a few hundred files, and keeps the findings', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-release-steps-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    mkdirSync(path.join(dir, 'all'));
    const count = 1500;
    for (let i = 0; i < count; i++) writeFileSync(path.join(dir, 'all', `b${i}.mthds`), bundle(i));
    const session = new Session({ folders: [dir], keepParsed: 0 });
    const [id] = session.scanWorkspace();
    session.check(id!);
    expect(session.lastCheck(id!.key)?.tree).toBeDefined();
    const steps = session.releaseClosedTreesSteps();
    let pauses = 0;
    while (!steps.next().done) pauses += 1;
    // At least one pause per 512 files.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(count / 512));
    expect(session.lastCheck(id!.key)?.tree).toBeUndefined();
    expect(session.lastCheck(id!.key)?.findings.size).toBe(count + 1);
  });
});
