// The bundle of the fix-all tests: one pipe declaring `unused` inputs its prompt never reads (each a
// `method.input_unused` with its fix), and the capabilities of a client that resolves code actions'
// edits lazily (`codeAction/resolve`), of one that does not but applies the server's edits
// (`workspace/applyEdit`), and of one that does neither.

import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { PUSH_CAPABILITIES } from './harness.js';

export function wideBundle(unused: number): string {
  return `domain = "demo"\ndescription = "Demo"\n\n[pipe.wide]\ntype = "PipeLLM"\ndescription = "Wide"\ninputs = { used = "Text", ${Array.from({ length: unused }, (_, i) => `u${i} = "Text"`).join(', ')} }\noutput = "Text"\nprompt = "Use $used"\n`;
}

export const RESOLVING: ClientCapabilities = { ...PUSH_CAPABILITIES, textDocument: { ...PUSH_CAPABILITIES.textDocument, codeAction: { dataSupport: true, resolveSupport: { properties: ['edit'] } } } };
export const NOT_RESOLVING: ClientCapabilities = { ...PUSH_CAPABILITIES, textDocument: { ...PUSH_CAPABILITIES.textDocument, codeAction: { dataSupport: true } } };
export const NOT_APPLYING: ClientCapabilities = { ...NOT_RESOLVING, workspace: { ...NOT_RESOLVING.workspace, applyEdit: false } };
