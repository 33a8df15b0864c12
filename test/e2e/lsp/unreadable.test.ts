// The language server's workspace scan meets a folder it cannot read (mode 000) holding a broken
// bundle: the folder gets a diagnostic (method.package_invalid, reason folder_unreadable) instead
// of being skipped. The server runs as a user the mode applies to (test/helpers/otherUser.ts).

import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shareFolder, unprivilegedCommand } from '../../helpers/otherUser.js';
import { REPO, startClient, tempWorkspace, uriOf, type LspClient } from './harness.js';

let client: LspClient | undefined;
const ws = tempWorkspace();
afterAll(async () => {
  chmodSync(path.join(ws, 'locked'), 0o755);
  await client?.shutdown();
});

describe('workspace scan', () => {
  it('reports a folder it cannot read', async () => {
    shareFolder(ws);
    mkdirSync(path.join(ws, 'ok'));
    copyFileSync(path.join(REPO, 'examples/news/news.mthds'), path.join(ws, 'ok', 'news.mthds'));
    mkdirSync(path.join(ws, 'locked'));
    copyFileSync(path.join(REPO, 'examples/broken/broken.mthds'), path.join(ws, 'locked', 'broken.mthds'));
    chmodSync(path.join(ws, 'locked'), 0o000);
    client = await startClient({ folders: [ws], command: unprivilegedCommand('server.js', ['--stdio']) });
    const diagnostics = await client.nextDiagnostics(uriOf(path.join(ws, 'locked')), (d) => d.length > 0, 0);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'method.package_invalid', severity: 1 });
    expect(diagnostics[0]!.message).toContain('permission denied');
  });
});
