// The publishing of one file of many findings goes in steps (a request is served between two), and
// sends the file once, with every diagnostic; a later check whose findings are new lists of the same
// findings sends nothing (the diagnostics are compared as values).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishDiagnosticsParams } from 'vscode-languageserver';
import { Publisher, type PublisherLinks } from '../../../server/src/lsp/diagnostics/publisher.js';
import type { DiagnosticsConnection, DiagnosticsOptions } from '../../../server/src/lsp/diagnostics/context.js';
import { findingToDiagnostic, type TextLocator } from '../../../server/src/lsp/convert.js';
import { Session, type TreeCheck } from '../../../server/src/workspace/session.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const UNUSED = 2_500;
const text = `domain = "demo"\ndescription = "Demo"\n\n[pipe.wide]\ntype = "PipeLLM"\ndescription = "Wide"\ninputs = { used = "Text", ${Array.from({ length: UNUSED }, (_, i) => `u${i} = "Text"`).join(', ')} }\noutput = "Text"\nprompt = "Use $used"\n`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('publishing a file of many findings', () => {
  it('converts its findings in steps, sends it once, and sends nothing again for the same findings', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mthds-publish-steps-'));
    const file = path.join(dir, 'wide.mthds');
    const session = new Session({ fs: nodeFileSystem, folders: [dir] });
    const id = session.setDocument(file, text);
    const sent: PublishDiagnosticsParams[] = [];
    const connection: DiagnosticsConnection = {
      sendDiagnostics: async (params) => void sent.push(params),
      languages: { diagnostics: { refresh: async () => undefined } },
    };
    const locator: TextLocator = { uriOf: (f) => pathToFileURL(f).href, lineStartsOf: (f) => session.lineStartsOf(f) };
    const options: DiagnosticsOptions = { pull: false, refreshSupport: false, debounceMs: () => 0, versionOf: () => 1, log: (m) => expect.fail(m) };
    const links: PublisherLinks = {
      cancelDryRun: () => undefined,
      checkPublished: () => undefined,
      ensureCurrent: () => expect.fail('no check is asked for'),
      flushDirty: async () => undefined,
      workspaceReady: async () => undefined,
    };
    const publisher = new Publisher(connection, session, locator, options, links);
    const result = session.check(id);
    const findings = result.findings.get(file)!;
    expect(findings).toHaveLength(UNUSED);

    publisher.documentChanged(file, id.key);
    let steps = 0;
    const run = publisher.publishSteps(result);
    while (!run.next().done) {
      steps += 1;
      // Nothing is sent before the file's diagnostics are all made.
      expect(sent).toHaveLength(0);
    }
    expect(steps).toBeGreaterThanOrEqual(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.uri).toBe(pathToFileURL(file).href);
    expect(sent[0]!.diagnostics).toEqual(findings.map((f) => findingToDiagnostic(f, locator)));

    // The same findings in new lists (a check of a text that did not change): nothing is sent.
    const again: TreeCheck = { ...result, findings: new Map([...result.findings].map(([f, list]) => [f, list.map((x) => ({ ...x }))])) };
    publisher.publish(again);
    expect(sent).toHaveLength(1);
    // A finding less: sent again, without it.
    const fewer: TreeCheck = { ...result, findings: new Map([[file, findings.slice(1)]]) };
    publisher.publish(fewer);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.diagnostics).toHaveLength(UNUSED - 1);
  });
});
