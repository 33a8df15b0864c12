// The VS Code commands the server may attach to what it sends (a completion item that reopens
// completion), declared in the client capabilities as `experimental.commands.commands` (the
// convention rust-analyzer reads): the server attaches them only for a client that declares them.

import type { ClientCapabilities, FeatureState, StaticFeature } from 'vscode-languageclient/node.js';

/** Reopens the suggest widget (after `alias->` is inserted, the concepts of the dependency). */
export const VSCODE_COMMANDS = ['editor.action.triggerSuggest'] as const;

export const clientCommandsFeature: StaticFeature = {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = typeof capabilities.experimental === 'object' && capabilities.experimental !== null ? (capabilities.experimental as Record<string, unknown>) : {};
    capabilities.experimental = { ...experimental, commands: { commands: [...VSCODE_COMMANDS] } };
  },
  initialize(): void {},
  getState(): FeatureState {
    return { kind: 'static' };
  },
  clear(): void {},
};
