// Locating a runner's validation errors, and the messages of runner failures.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateRunnerErrors } from '../../../server/src/lsp/runner/locate.js';
import { describeProblem, describeRunnerError, problemCode } from '../../../server/src/lsp/runner/messages.js';
import { HEADER, ROOT, treeOf } from '../../helpers/tree.js';

const TEXT = `${HEADER}\n[concept.Note]\ndescription = "A note"\n\n[pipe.write]\ntype = "PipeLLM"\ndescription = "Write"\noutput = "Note"\nprompt = "Write"\n`;
const FILE = path.join(ROOT, 'main.mthds');
const names = new Map([['main.mthds', FILE]]);

describe('locateRunnerErrors', () => {
  const tree = treeOf({ 'main.mthds': TEXT });
  const slice = (r: { start: number; end: number }): string => TEXT.slice(r.start, r.end);

  it('uses file, line and column (1-based), with the end when given, else the word there', () => {
    const line = TEXT.split('\n').findIndex((l) => l.startsWith('output')) + 1;
    const [withEnd, withoutEnd] = locateRunnerErrors(
      [
        { category: 'c', code: 'method.x', message: 'm', file: 'main.mthds', line, column: 10, end_line: line, end_column: 16 },
        { category: 'c', message: 'n', file: 'main.mthds', line, column: 10 },
      ],
      tree,
      names,
    );
    expect(withEnd).toMatchObject({ file: FILE, code: 'method.x', message: 'm' });
    expect(slice(withEnd!.range)).toBe('"Note"');
    expect(withoutEnd!.code).toBe('c');
    expect(slice(withoutEnd!.range)).toBe('"Note"');
  });

  it('falls back to the pipe (and its field) or the concept named, then to the start of the file', () => {
    const located = locateRunnerErrors(
      [
        { category: 'pipe', message: 'a', pipe_code: 'write' },
        { category: 'pipe', message: 'b', pipe: 'demo.write', field: 'prompt' },
        { category: 'concept', message: 'c', concept_code: 'Note', source: 'main.mthds' },
        { category: 'x', message: 'd', file: 'unknown.mthds' },
      ],
      tree,
      names,
    );
    expect(located.map((l) => slice(l.range))).toEqual(['write', 'prompt', 'Note', '']);
    expect(located[3]!.file).toBe(FILE);
  });
});

describe('runner messages', () => {
  it('names the code, title, detail and the registry advice of a problem', () => {
    const text = describeProblem(422, { type: 'https://mthds.ai/errors/method.pipe_unresolved', title: 'Pipe reference not resolved', detail: 'The pipe x does not exist.' });
    expect(text.split('\n')[0]).toBe('method.pipe_unresolved: Pipe reference not resolved');
    expect(text).toContain('The pipe x does not exist.');
    expect(text).toMatch(/^Advice: /m);
    expect(problemCode({ type: 'about:blank' })).toBeUndefined();
    expect(describeProblem(404, { title: 'Not Found', detail: 'no route' }).split('\n')[0]).toBe('Not Found (HTTP 404)');
  });

  it('guides about credentials, and says plainly when the runner is unreachable or slow', () => {
    expect(describeProblem(403, { title: 'Forbidden' })).toMatch(/mthds\.runner\.token/);
    expect(describeRunnerError({ kind: 'unreachable', message: 'ECONNREFUSED' }, 'http://h/v1')).toMatch(/^The runner at http:\/\/h\/v1 cannot be reached \(ECONNREFUSED\)/);
    expect(describeRunnerError({ kind: 'timeout', timeoutMs: 30_000 }, 'u')).toContain('within 30 s');
    // In a browser an unreachable runner may be one that does not allow the page's origin: say how to allow it.
    const fromPage = describeRunnerError({ kind: 'unreachable', message: 'Failed to fetch' }, 'http://127.0.0.1:8080/v1', 'https://x1.vscode-cdn.net');
    expect(fromPage).toMatch(/^The runner at http:\/\/127\.0\.0\.1:8080\/v1 cannot be reached from this page, origin https:\/\/x1\.vscode-cdn\.net \(Failed to fetch\)/);
    // The subdomain changes each session: the pattern is what to allow.
    expect(fromPage).toContain("`mthds serve --allow-origin 'https://*.vscode-cdn.net'` (vscode.dev and github.dev");
    expect(fromPage).not.toContain('built-in runner');
    expect(describeRunnerError({ kind: 'unreachable', message: 'Failed to fetch' }, 'http://h/v1', 'http://127.0.0.1:5173')).toContain('`mthds serve --allow-origin http://127.0.0.1:5173`, and check');
    expect(describeRunnerError({ kind: 'bad_response', status: 401, message: 'status 401 with a body that is not JSON' }, 'u')).toMatch(/mthds\.runner\.token/);
  });
});
