// The language server's workspace check meets a package holding a FIFO named like a bundle and a
// bundle that is a link to /dev/zero: neither is read (the check ends, the server stays alive and
// small), and each gets a diagnostic instead of being skipped.

import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';

let client: LspClient | undefined;
afterAll(async () => {
  await client?.shutdown();
});

describe('a package with a FIFO and a device link', () => {
  it('reports both, reads neither, and checks the rest', async () => {
    const ws = tempWorkspace({
      'METHODS.toml': '[package]\nname = "special"\naddress = "github.com/acme/special"\nversion = "1.0.0"\ndescription = "d"\n',
      'a.mthds': 'domain = "special"\ndescription = "d"\n\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Txt"\nprompt = "Hi"\n',
    });
    execFileSync('mkfifo', [path.join(ws, 'b.mthds')]);
    symlinkSync('/dev/zero', path.join(ws, 'c.mthds'));
    client = await startClient({ folders: [ws] });
    const fifo = await client.nextDiagnostics(uriOf(path.join(ws, 'b.mthds')), (d) => d.length > 0, 0);
    expect(fifo.map((d) => [d.code, d.message])).toEqual([['method.package_invalid', 'The package breaks a rule (not_regular_file) at b.mthds. (a FIFO, not a regular file; it is not read)']]);
    const link = await client.nextDiagnostics(uriOf(path.join(ws, 'c.mthds')), (d) => d.length > 0, 0);
    expect(link.map((d) => d.code)).toEqual(['method.package_invalid']);
    expect(link[0]!.message).toContain('(symlink)');
    const checked = await client.nextDiagnostics(uriOf(path.join(ws, 'a.mthds')), (d) => d.length > 0, 0);
    expect(checked.map((d) => d.code)).toContain('method.concept_unresolved');
    expect(client.alive()).toBe(true);
  });

  it('in a folder that is no package: the FIFO bundle is reported too', async () => {
    await client?.shutdown();
    const ws = tempWorkspace({ 'a.mthds': 'domain = "loose"\ndescription = "d"\n' });
    execFileSync('mkfifo', [path.join(ws, 'b.mthds')]);
    client = await startClient({ folders: [ws] });
    const fifo = await client.nextDiagnostics(uriOf(path.join(ws, 'b.mthds')), (d) => d.length > 0, 0);
    expect(fifo.map((d) => d.code)).toEqual(['method.package_invalid']);
    expect(fifo[0]!.message).toContain('(not_regular_file)');
    expect(client.alive()).toBe(true);
  });
});
