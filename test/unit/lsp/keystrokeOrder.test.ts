// A completion sent with a keystroke is answered before the keystroke's check starts: the server
// (in process, over streams) writes the completion's answer before it first steps the check. With
// the check started one turn earlier, the answer waited for the check's first slice (the writer of
// vscode-jsonrpc sends an answer one turn after its handler returned).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Session } from '../../../server/src/workspace/session.js';
import { frame, inProcessServer } from '../../helpers/inProcessServer.js';

const MANIFEST = '[package]\nname = "pkg"\naddress = "github.com/example/pkg"\nversion = "1.0.0"\ndescription = "A package"\n';
const BUNDLE = 'domain = "d"\ndescription = "Probe"\n\n[concept.Invoice]\ndescription = "An invoice"\n\n[pipe.probe]\ntype = "PipeLLM"\ndescription = "d"\noutput = "Te"\nprompt = "x"\n';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a completion sent with a keystroke', () => {
  it('is answered before the check of that keystroke starts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mthds-keystroke-order-'));
    writeFileSync(path.join(dir, 'METHODS.toml'), MANIFEST);
    const file = path.join(dir, 'probe.mthds');
    writeFileSync(file, BUNDLE);
    const uri = pathToFileURL(file).href;

    const { up, down, server, client } = inProcessServer();
    const published: Array<{ version?: number }> = [];
    client.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
      if (p.uri === uri) published.push(p);
    });
    client.onRequest('window/workDoneProgress/create', () => null);
    client.onRequest('client/registerCapability', () => null);
    client.onRequest('workspace/configuration', () => []);
    client.listen();
    const until = async (what: () => boolean): Promise<void> => {
      for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(what()).toBe(true);
    };

    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(dir).href, capabilities: {}, initializationOptions: { diagnostics: { debounceMs: 0, dryRun: false } } });
    await client.sendNotification('initialized', {});
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mthds', version: 1, text: BUNDLE } });
    await until(() => published.some((p) => p.version === 1));

    // What the server does from here, in order: it starts a check, it writes an answer.
    const events: string[] = [];
    const checkSteps = Session.prototype.checkSteps;
    vi.spyOn(Session.prototype, 'checkSteps').mockImplementation(function (this: Session, ...args) {
      events.push('check');
      return checkSteps.apply(this, args);
    });
    down.on('data', (d: Buffer) => {
      if (d.toString('utf8').includes('"id":"probe"')) events.push('answer');
    });
    const changed = BUNDLE.replace('description = "d"', 'description = "dx"');
    const position = { line: changed.split('\n').findIndex((l) => l.startsWith('output = ')), character: 'output = "'.length };
    up.write(
      frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ text: changed }] } }) +
        frame({ id: 'probe', method: 'textDocument/completion', params: { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: '"' } } }),
    );
    await until(() => events.includes('answer') && published.some((p) => p.version === 2));
    expect(events).toEqual(['answer', 'check']);

    client.dispose();
    server.dispose();
  });
});
