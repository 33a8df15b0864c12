// The VS Code client declares the client-side commands the server may attach to its items.

import { describe, expect, it } from 'vitest';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { clientCommandsFeature, VSCODE_COMMANDS } from '../../../client/src/clientCommands.js';
import { clientCommands, RETRIGGER_COMMAND } from '../../../server/src/lsp/completion.js';

describe('client-side commands', () => {
  it('are declared under experimental.commands, other experimental entries kept, and read back by the server', () => {
    const caps: ClientCapabilities = { experimental: { other: 1 } };
    clientCommandsFeature.fillClientCapabilities(caps);
    expect(caps.experimental).toEqual({ other: 1, commands: { commands: ['editor.action.triggerSuggest'] } });
    expect(clientCommands(caps)).toContain(RETRIGGER_COMMAND);
    expect(VSCODE_COMMANDS).toContain(RETRIGGER_COMMAND);
  });

  it('are none for a client that declares none, or declares them malformed', () => {
    expect(clientCommands({})).toEqual([]);
    expect(clientCommands({ experimental: { commands: { commands: 'editor.action.triggerSuggest' } } })).toEqual([]);
    expect(clientCommands({ experimental: null })).toEqual([]);
  });
});
