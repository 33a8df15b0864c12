// Call hierarchy and go-to-implementation over real stdio: a controller's calls across bundles of
// a domain and into a dependency package, the callers of a pipe, and a signature's implementation
// and back.

import { afterEach, describe, expect, it } from 'vitest';
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall, Location } from 'vscode-languageserver-protocol';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { appManifest, manifestText, SCORING_BUNDLE } from '../../helpers/packages.js';
import { LspClient, positionOf, startClient, tempWorkspace, textAt, uriOf } from './harness.js';

let client: LspClient | undefined;
afterEach(async () => {
  await client?.shutdown();
  client = undefined;
});

const MAIN = `domain = "app"
main_pipe = "run"

[pipe.run]
type = "PipeSequence"
description = "Summarize, then score, twice"
inputs = { text = "Text" }
output = "Text"
steps = [
  { pipe = "summarize", result = "summary" },
  { pipe = "lib->scoring.compute", result = "score" },
  { pipe = "summarize", result = "again" },
]

[pipe.polish]
type = "PipeSequence"
description = "Polish a summary"
inputs = { text = "Text" }
output = "Text"
steps = [{ pipe = "summarize", result = "summary" }]
`;

const SIGNATURES = `domain = "app"

[pipe.summarize]
description = "Summarize a text (the contract)"
inputs = { text = "Text" }
output = "Text"
`;

const IMPLEMENTATION = `domain = "app"

[pipe.summarize]
type = "PipeLLM"
description = "Summarize a text"
inputs = { text = "Text" }
output = "Text"
prompt = "Summarize $text"
`;

function workspace(): string {
  return tempWorkspace({
    'app/METHODS.toml': appManifest('lib = { address = "github.com/acme/scoring", version = "^1.0.0", path = "../scoring" }'),
    'app/main.mthds': MAIN,
    'app/signatures.mthds': SIGNATURES,
    'app/summarize.mthds': IMPLEMENTATION,
    'scoring/METHODS.toml': manifestText('scoring', 'github.com/acme/scoring', '1.0.0'),
    'scoring/scoring.mthds': SCORING_BUNDLE,
  });
}

async function open(ws: string, rel: string): Promise<{ uri: string; text: string }> {
  const file = path.join(ws, rel);
  const text = readFileSync(file, 'utf8');
  const uri = uriOf(file);
  client!.open(uri, text);
  await client!.nextDiagnostics(uri);
  return { uri, text };
}

const rangeText = (ws: string, uri: string, range: Location['range']): string => textAt(readFileSync(new URL(uri), 'utf8'), range);

describe('call hierarchy', () => {
  it('announces the capabilities', async () => {
    client = await startClient({ folders: [] });
    expect(client.initializeResult.capabilities).toMatchObject({ callHierarchyProvider: true, implementationProvider: true });
  });

  it('prepares a pipe from its declaration or a reference, and lists its outgoing calls across bundles and packages', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const { uri, text } = await open(ws, 'app/main.mthds');
    const items = await client.connection.sendRequest<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: positionOf(text, text.indexOf('[pipe.run]') + 7) });
    expect(items).toHaveLength(1);
    expect(items![0]).toMatchObject({ name: 'run', uri, detail: 'PipeSequence · app' });
    const out = await client.connection.sendRequest<CallHierarchyOutgoingCall[]>('callHierarchy/outgoingCalls', { item: items![0] });
    expect(out.map((c) => `${c.to.name} ${path.relative(ws, new URL(c.to.uri).pathname)} ${c.fromRanges.length}`)).toEqual(['summarize app/summarize.mthds 2', 'compute scoring/scoring.mthds 1']);
    expect(out[1]!.fromRanges.map((r) => textAt(text, r))).toEqual(['"lib->scoring.compute"']);
    // From a reference: the implementation, not the signature.
    const fromRef = await client.connection.sendRequest<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: positionOf(text, text.indexOf('pipe = "summarize"') + 9) });
    expect(fromRef![0]).toMatchObject({ name: 'summarize', detail: 'PipeLLM · app' });
    expect(rangeText(ws, fromRef![0]!.uri, fromRef![0]!.selectionRange)).toBe('summarize');
  });

  it('lists the incoming calls of a pipe, in its package and from the package using it', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const { uri, text } = await open(ws, 'app/main.mthds');
    const [summarize] = (await client.connection.sendRequest<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: positionOf(text, text.indexOf('pipe = "summarize"') + 9) }))!;
    const incoming = await client.connection.sendRequest<CallHierarchyIncomingCall[]>('callHierarchy/incomingCalls', { item: summarize });
    expect(incoming.map((c) => `${c.from.name}:${c.fromRanges.length}`)).toEqual(['run:2', 'polish:1']);
    expect(incoming[0]!.fromRanges.map((r) => textAt(text, r))).toEqual(['"summarize"', '"summarize"']);
    const [compute] = (await client.connection.sendRequest<CallHierarchyItem[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: positionOf(text, text.indexOf('lib->scoring.compute') + 15) }))!;
    expect(compute!.uri).toBe(uriOf(path.join(ws, 'scoring/scoring.mthds')));
    const callers = await client.connection.sendRequest<CallHierarchyIncomingCall[]>('callHierarchy/incomingCalls', { item: compute });
    expect(callers.map((c) => `${c.from.name} ${path.relative(ws, new URL(c.from.uri).pathname)}`)).toEqual(['run app/main.mthds']);
  });

  it('answers nothing away from a pipe', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const { uri } = await open(ws, 'app/main.mthds');
    expect(await client.connection.sendRequest('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: { line: 0, character: 2 } })).toBeNull();
  });
});

describe('implementation', () => {
  it('goes from a signature to its implementation, and back; from a reference to the implementation', async () => {
    const ws = workspace();
    client = await startClient({ folders: [ws] });
    await client.workspaceChecked();
    const sig = await open(ws, 'app/signatures.mthds');
    const impl = await open(ws, 'app/summarize.mthds');
    const at = (t: string, s: string, d: number) => positionOf(t, t.indexOf(s) + d);
    const forward = await client.connection.sendRequest<Location[]>('textDocument/implementation', { textDocument: { uri: sig.uri }, position: at(sig.text, '[pipe.summarize]', 7) });
    expect(forward.map((l) => [l.uri, textAt(impl.text, l.range)])).toEqual([[impl.uri, 'summarize']]);
    const back = await client.connection.sendRequest<Location[]>('textDocument/implementation', { textDocument: { uri: impl.uri }, position: at(impl.text, '[pipe.summarize]', 7) });
    expect(back.map((l) => [l.uri, textAt(sig.text, l.range)])).toEqual([[sig.uri, 'summarize']]);
    const main = await open(ws, 'app/main.mthds');
    const fromRef = await client.connection.sendRequest<Location[]>('textDocument/implementation', { textDocument: { uri: main.uri }, position: at(main.text, 'pipe = "summarize"', 9) });
    expect(fromRef.map((l) => l.uri)).toEqual([impl.uri]);
  });
});
