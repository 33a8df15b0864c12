// Formatter options: `mthds.format.*` settings added to the LSP formatting options, which is where
// the server's formatter reads them (VS Code itself sends only tab size and spaces).

import { describe, expect, it } from 'vitest';
import { readFormatSettings, withFormatOptions } from '../../../client/src/format.js';
import { formatOptionsOf } from '../../../server/src/lsp/formatting.js';

describe('format settings', () => {
  it('reads the settings, ignoring values of the wrong type', () => {
    const values: Record<string, unknown> = { enable: true, alignEntries: false, arrayTrailingComma: 'yes', reorderKeys: true };
    expect(readFormatSettings((k) => values[k])).toEqual({ enable: true, alignEntries: false, reorderKeys: true });
    expect(readFormatSettings(() => undefined)).toEqual({ enable: true });
    expect(readFormatSettings((k) => (k === 'enable' ? false : undefined)).enable).toBe(false);
  });

  it('adds them to the formatting options, as the server reads them', () => {
    const options = withFormatOptions({ tabSize: 4, insertSpaces: true }, { enable: true, alignEntries: false, arrayTrailingComma: false, reorderKeys: true });
    expect(options).toEqual({ tabSize: 4, insertSpaces: true, alignEntries: false, arrayTrailingComma: false, reorderKeys: true });
    // The server's own reading of the request's options.
    expect(formatOptionsOf(options)).toEqual({ indentString: '    ', alignEntries: false, arrayTrailingComma: false, reorderKeys: true });
    expect(withFormatOptions({ tabSize: 2, insertSpaces: true }, { enable: true })).toEqual({ tabSize: 2, insertSpaces: true });
  });
});
