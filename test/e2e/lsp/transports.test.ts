// Start-up over each transport the server offers: --stdio, --node-ipc, --socket=N.

import { afterEach, describe, expect, it } from 'vitest';
import { LspClient, startClient, type Transport } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

describe('language server transports', () => {
  for (const transport of ['stdio', 'node-ipc', 'socket'] as Transport[]) {
    it(`initializes and checks a document over ${transport}`, async () => {
      client = await startClient({ transport });
      expect(client.initializeResult.serverInfo?.name).toBe('mthds-language-server');
      expect(client.initializeResult.capabilities.codeActionProvider).toBeDefined();
      const uri = 'untitled:smoke';
      client.open(uri, 'domain = "demo"\ndescription = "d"\n[pipe.a]\ntype = "PipeNope"\ndescription = "a"\noutput = "Text"\n');
      const diagnostics = await client.nextDiagnostics(uri, (d) => d.length > 0, 0);
      expect(diagnostics.map((d) => d.code)).toContain('method.pipe_type_invalid');
    });
  }
});
