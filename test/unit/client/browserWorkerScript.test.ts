// The browser client starts the language server's worker from the extension's own URL where the
// web extension host can (https on vscode.dev, file: mapped by the host), and from a blob: of the
// script read through the editor's file system where it cannot (vscode-remote: in code-server).

import { describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => import('./fakeVscode.js'));

import type * as vscode from 'vscode';
import { Uri } from './fakeVscode.js';
import { workerScript } from '../../../client/src/browser/workerScript.js';

const SCRIPT = 'self.onmessage = () => undefined;\n';
const uri = (text: string): vscode.Uri => Uri.parse(text) as unknown as vscode.Uri;

describe('the worker script of the browser client', () => {
  it.each(['https://extensions.example/mthds/server/dist/browser.js', 'http://127.0.0.1:8080/ext/server/dist/browser.js', 'file:///ext/server/dist/browser.js'])(
    'starts from %s itself, reading nothing',
    async (text) => {
      const read = vi.fn(async (): Promise<Uint8Array> => new Uint8Array());
      const script = await workerScript(uri(text), read);
      expect(script.url).toBe(text);
      expect(read).not.toHaveBeenCalled();
      script.dispose();
    },
  );

  it('starts a remote extension\'s worker from a blob: URL holding the script read through the file system', async () => {
    const remote = 'vscode-remote://127.0.0.1:8080/home/u/.local/share/code-server/extensions/mthds.mthds-tools-0.1.0/server/dist/browser.js';
    const read = vi.fn(async (_uri: vscode.Uri): Promise<Uint8Array> => new TextEncoder().encode(SCRIPT));
    const script = await workerScript(uri(remote), read);
    expect(read.mock.calls.map(([u]) => u.toString())).toEqual([remote]);
    expect(script.url).toMatch(/^blob:/);
    const blob = await fetch(script.url);
    expect(blob.headers.get('content-type')).toBe('text/javascript');
    expect(await blob.text()).toBe(SCRIPT);
    script.dispose();
    // Freed: the URL no longer resolves.
    await expect(fetch(script.url)).rejects.toThrow();
  });

  it('fails with the file system\'s error when the script cannot be read', async () => {
    const read = vi.fn(async (): Promise<Uint8Array> => {
      throw new Error('EntryNotFound (FileSystemError): browser.js');
    });
    await expect(workerScript(uri('vscode-remote://host/ext/server/dist/browser.js'), read)).rejects.toThrow('EntryNotFound');
  });
});
