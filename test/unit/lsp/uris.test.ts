// File identities and URIs: a path's URI is the one Node makes of it (spaces, `#`, `%`, non-ASCII
// escaped), asked once or many times; a URI a client gave for an open document wins.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileToUri, uriToFile } from '../../../server/src/lsp/uris.js';

describe('file URIs', () => {
  it('are the URIs Node makes of the paths, asked once or again, and go back to the paths', () => {
    const segment = fc.stringMatching(/^[a-zA-Z0-9 #%?&é€_.-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (parts) => {
        const file = path.resolve('/', ...parts);
        const expected = pathToFileURL(file).href;
        expect(fileToUri(file)).toBe(expected);
        expect(fileToUri(file)).toBe(expected);
        expect(uriToFile(fileToUri(file))).toBe(file);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('are the URIs Node makes of any absolute path, plain or not, resolved or not', () => {
    const segment = fc.oneof(fc.stringMatching(/^[a-zA-Z0-9_.-]{1,8}$/), fc.constantFrom('.', '..', '', ' x', 'a#b', 'ü', '%41'));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        const file = `/${parts.join('/')}`;
        expect(fileToUri(file)).toBe(pathToFileURL(file).href);
      }),
      { seed: 11, numRuns: 2000 },
    );
  });

  it('take the URI a client gave for the file, and leave other identities as they are', () => {
    const file = path.resolve('/work/a b.mthds');
    expect(fileToUri(file)).toBe(pathToFileURL(file).href);
    expect(fileToUri(file, new Map([[file, 'file:///work/a%20b.mthds?client']]))).toBe('file:///work/a%20b.mthds?client');
    expect(fileToUri('untitled:Untitled-1')).toBe('untitled:Untitled-1');
  });
});
