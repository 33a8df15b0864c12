// The language server's workspace scan meets a folder it cannot read (mode 000) holding a broken
// bundle: the folder gets a diagnostic (method.package_invalid, reason folder_unreadable) instead
// of being skipped. The server runs as a user the mode applies to (test/helpers/otherUser.ts).

import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockedWorkspace, unprivilegedCommand } from '../../helpers/otherUser.js';
import { startClient, uriOf, type LspClient } from './harness.js';

let client: LspClient | undefined;
const { ws, unlock } = lockedWorkspace();
afterAll(async () => {
  unlock();
  await client?.shutdown();
});

describe('workspace scan', () => {
  it('reports a folder it cannot read', async () => {
    client = await startClient({ folders: [ws], command: unprivilegedCommand('server.js', ['--stdio']) });
    const diagnostics = await client.nextDiagnostics(uriOf(path.join(ws, 'locked')), (d) => d.length > 0, 0);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'method.package_invalid', severity: 1 });
    expect(diagnostics[0]!.message).toContain('permission denied');
  });
});
