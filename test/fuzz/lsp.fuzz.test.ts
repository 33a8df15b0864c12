// Fuzzing the BUILT language server over stdio: random sequences of incremental edits to an open
// document (the fragments an editor buffer really sees mid-typing), interleaved with requests at
// random positions and not awaited (so they race the edits and the debounced check). The server
// must stay up, answer every request without an error (a rename may be refused with a message;
// a request may be cancelled), log no swallowed failure, hold the text the changes mean (a fresh
// open of the client's copy gets the same diagnostics), and once every edit is undone publish the
// same diagnostics as a fresh open of the original text.
//
// Positions and ranges are drawn as a client may send them, not only as a well-behaved editor
// does: past the end of the document or of a line (legal LSP: clamped), negative, fractional,
// huge (2^31-1), reversed, inside a surrogate pair; several overlapping changes in one
// notification; versions going backwards. (Drawing every position from an offset of the client's
// copy, as this fuzzer once did, can only make well-formed positions: it never sent the change past
// the end that corrupted the server's line table.) Seeded and bounded for CI; a long run is
// `FUZZ_RUNS=300 npx vitest run test/fuzz/lsp.fuzz.test.ts` (build the server first).

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { ResponseError } from 'vscode-jsonrpc/node.js';
import type { Diagnostic, Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLspChange, LspClient, PUSH_CAPABILITIES, REPO, startClient, tempWorkspace, uriOf } from '../e2e/lsp/harness.js';

// LSP_FUZZ_RUNS sets this fuzzer's runs apart from the others' FUZZ_RUNS (its runs are slower).
const RUNS = Number(process.env['LSP_FUZZ_RUNS'] ?? process.env['FUZZ_RUNS'] ?? 30);
const MAX_EDITS = Number(process.env['LSP_FUZZ_EDITS'] ?? 15);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);
const EXAMPLES = path.join(REPO, 'examples');
const BUILT = path.join(REPO, 'server/dist/server.js');

/** JSON-RPC codes a request may legitimately end with. */
const REQUEST_CANCELLED = -32800;
const CONTENT_MODIFIED = -32801;
const SERVER_CANCELLED = -32802;
/** What `refuse()` uses for a rename the server declines (with a message for the user). */
const INVALID_REQUEST = -32600;

const FRAGMENTS = ['"', '"""', "'''", '[', ']', '{', '}', '=', ',', '.', '\n', '\n\n', '[pipe.', '[pipe.x]\n', '[concept.', 'type = "PipeLLM"\n', 'inputs = {', '$', '@', '{{', '}}', '{%', '->', '?', '#', ' ', 'Text', 'x_renamed', 'é', '😀', '\ud83d', '\ude00'];

/** How a position is drawn; `at` picks the place (an offset, a line, a surrogate pair). */
type PositionKind = 'valid' | 'pastLine' | 'pastEnd' | 'negative' | 'huge' | 'fraction' | 'surrogate';
type RawPosition = { kind: PositionKind; at: number };
type RawRange = { start: RawPosition; end: RawPosition };
type Change = { range: RawRange; text: string };

const REQUESTS = ['completion', 'hover', 'definition', 'references', 'highlight', 'rename', 'formatting', 'rangeFormatting', 'semanticTokens', 'semanticTokensRange', 'inlayHint', 'selectionRange', 'documentSymbol', 'codeAction', 'implementation', 'callHierarchy'] as const;

type Step =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'replace'; at: number; length: number; text: string }
  | { kind: 'raw'; changes: Change[]; back: number }
  | { kind: (typeof REQUESTS)[number]; at: number; onWord: boolean; position: RawPosition; range: RawRange }
  | { kind: 'settle' };

const rawPosition: fc.Arbitrary<RawPosition> = fc.record({
  kind: fc.constantFrom<PositionKind>('valid', 'valid', 'valid', 'pastLine', 'pastEnd', 'negative', 'huge', 'fraction', 'surrogate'),
  at: fc.nat(),
});
const rawRange: fc.Arbitrary<RawRange> = fc.record({ start: rawPosition, end: rawPosition });

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...FRAGMENTS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }), text: fc.constantFrom(...FRAGMENTS) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      // One to three changes in one notification, each applied to the text the previous left.
      changes: fc.array(fc.record({ range: rawRange, text: fc.constantFrom(...FRAGMENTS, '') }), { minLength: 1, maxLength: 3 }),
      // Mostly the next version; sometimes an older one (a client may resend or go back).
      back: fc.constantFrom(0, 0, 0, 1, 3),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constantFrom(...REQUESTS),
      at: fc.nat(),
      // Half the time, inside a word (where a concept, a pipe or a variable may be).
      onWord: fc.boolean(),
      position: rawPosition,
      range: rawRange,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'settle' as const }) },
);

/** A position of the given kind in `doc` (the client's copy). */
function positionIn(doc: TextDocument, p: RawPosition): Position {
  const text = doc.getText();
  const valid = doc.positionAt(p.at % (text.length + 1));
  switch (p.kind) {
    case 'valid':
      return valid;
    case 'pastLine':
      return { line: valid.line, character: valid.character + 1 + (p.at % 1000) };
    case 'pastEnd':
      return { line: doc.lineCount + (p.at % 5), character: p.at % 7 };
    case 'negative':
      return p.at % 2 === 0 ? { line: -1 - (p.at % 3), character: -(p.at % 5) } : { line: valid.line, character: -1 - (p.at % 4) };
    case 'huge':
      return { line: 2 ** 31 - 1 - (p.at % 2), character: p.at % 3 === 0 ? 2 ** 31 - 1 : p.at % 9 };
    case 'fraction':
      return { line: valid.line + 0.5, character: valid.character + 0.25 };
    case 'surrogate': {
      const pairs = [...text.matchAll(/[\ud800-\udbff][\udc00-\udfff]/g)];
      const pair = pairs.length > 0 ? pairs[p.at % pairs.length]! : undefined;
      return pair ? doc.positionAt(pair.index + 1) : valid;
    }
  }
}

/** The documents edited, relative to the workspace; each has a twin under `fresh/` for the comparison. */
const TARGETS = ['news/news.mthds', 'invoices/check.mthds', 'invoices/concepts.mthds', 'broken/broken.mthds'];

type Comparable = { code: Diagnostic['code']; range: Range; message: string };
const comparable = (ds: readonly Diagnostic[]): Comparable[] =>
  ds
    .map((d) => ({ code: d.code, range: d.range, message: d.message }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe.runIf(existsSync(BUILT))('fuzzing the language server over stdio', () => {
  let client: LspClient;
  let ws: string;
  const originals = new Map<string, string>();
  const baselines = new Map<string, Comparable[]>();

  beforeAll(async () => {
    const copies: Record<string, string> = {};
    for (const name of ['news', 'invoices', 'broken']) {
      copies[name] = path.join(EXAMPLES, name);
      copies[`fresh/${name}`] = path.join(EXAMPLES, name);
    }
    ws = tempWorkspace({}, copies);
    client = await startClient({ folders: [ws], capabilities: PUSH_CAPABILITIES });
    await client.workspaceChecked();
    // The baseline: each original text opened fresh, under a URI never used for editing.
    for (const rel of TARGETS) {
      const text = readFileSync(path.join(ws, rel), 'utf8');
      originals.set(rel, text);
      const fresh = uriOf(path.join(ws, 'fresh', rel));
      const after = client.published.length;
      client.open(fresh, text);
      baselines.set(rel, comparable(await client.nextDiagnostics(fresh, () => true, after)));
      client.close(fresh);
    }
    for (const rel of TARGETS) {
      const uri = uriOf(path.join(ws, rel));
      const after = client.published.length;
      client.open(uri, originals.get(rel)!);
      // The document itself, opened unchanged, agrees with its fresh twin.
      expect(comparable(await client.nextDiagnostics(uri, () => true, after)), rel).toEqual(baselines.get(rel));
    }
  });

  afterAll(async () => {
    await client?.shutdown();
  });

  it(`survives ${RUNS} edit sequences of up to ${MAX_EDITS} steps (seed ${SEED})`, async () => {
    let sequences = 0;
    let edits = 0;
    let requests = 0;
    let refused = 0;
    let cancelled = 0;
    const answered = new Map<string, number>();
    const started = performance.now();

    const docOf = (uri: string): TextDocument => TextDocument.create(uri, 'mthds', 0, client.text(uri));
    const positionOf = (doc: TextDocument, s: { at: number; onWord: boolean; position: RawPosition }): Position => {
      const text = doc.getText();
      const words = s.onWord ? [...text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)] : [];
      const word = words.length > 0 ? words[s.at % words.length]! : undefined;
      return word ? doc.positionAt(word.index + (s.at % word[0].length)) : positionIn(doc, s.position);
    };
    let slowest = { ms: 0, method: '' };

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TARGETS), fc.array(step, { minLength: 1, maxLength: MAX_EDITS, size: 'max' }), async (rel, steps) => {
        sequences += 1;
        const uri = uriOf(path.join(ws, rel));
        const pending: Array<Promise<void>> = [];
        const log: string[] = [];
        const failures: string[] = [];
        const logsBefore = client.logs.length;

        /** Sends a request without awaiting it; its outcome is checked at the end of the sequence. */
        const request = (method: string, params: unknown, then?: (result: unknown) => void | Promise<void>): Promise<unknown> => {
          requests += 1;
          const sentAt = performance.now();
          const sent = client.connection.sendRequest(method, params);
          const what = `${method} ${JSON.stringify(params).slice(0, 300)}`;
          const timed = (): void => {
            const ms = performance.now() - sentAt;
            if (ms > slowest.ms) slowest = { ms, method };
          };
          void sent.then(timed, timed);
          pending.push(
            sent.then(
              async (result) => {
                if (process.env['LSP_FUZZ_DEBUG'] && method.endsWith('/rename')) console.log('renamed', JSON.stringify(result).slice(0, 200));
                if (result !== null && !(Array.isArray(result) && result.length === 0)) answered.set(method, (answered.get(method) ?? 0) + 1);
                await then?.(result);
              },
              (error: unknown) => {
                if (error instanceof ResponseError) {
                  if (error.code === REQUEST_CANCELLED || error.code === CONTENT_MODIFIED || error.code === SERVER_CANCELLED) {
                    cancelled += 1;
                    return;
                  }
                  if (error.code === INVALID_REQUEST && method.endsWith('ename') && error.message.length > 0) {
                    refused += 1;
                    if (process.env['LSP_FUZZ_DEBUG']) console.log("refused", error.message);
                    return;
                  }
                  failures.push(`${what} -> error ${error.code}: ${error.message}`);
                } else failures.push(`${what} -> ${String(error)}`);
              },
            ),
          );
          return sent.catch(() => undefined);
        };

        for (const s of steps) {
          const doc = docOf(uri);
          const length = doc.getText().length;
          const range = (at: number, n: number): Range => {
            const start = at % (length + 1);
            return { start: doc.positionAt(start), end: doc.positionAt(Math.min(length, start + n)) };
          };
          let edit: TextEdit | undefined;
          switch (s.kind) {
            case 'insert':
              edit = { range: range(s.at, 0), newText: s.text };
              break;
            case 'delete':
              edit = { range: range(s.at, s.length), newText: '' };
              break;
            case 'replace':
              edit = { range: range(s.at, s.length), newText: s.text };
              break;
            case 'settle':
              await Promise.all(pending);
              continue;
            case 'raw': {
              // Each range is drawn against the text the previous change of the notification left.
              let current = client.text(uri);
              const changes = s.changes.map((c) => {
                const d = TextDocument.create(uri, 'mthds', 0, current);
                const change = { range: { start: positionIn(d, c.range.start), end: positionIn(d, c.range.end) }, text: c.text };
                current = applyLspChange(current, change);
                return change;
              });
              const version = client.version(uri) + 1 - 2 * s.back;
              log.push(`raw v${version} ${JSON.stringify(changes)}`);
              client.sendRawChanges(uri, changes, version);
              edits += 1;
              continue;
            }
            default: {
              const position = positionOf(doc, s);
              const textDocument = { uri };
              const lspRange = { start: positionIn(doc, s.range.start), end: positionIn(doc, s.range.end) };
              const lines = doc.lineCount;
              /** Edits of a formatting answer must lie in the text the request was sent for. */
              const inside = (r: unknown): void => {
                for (const e of (r as TextEdit[] | null) ?? []) {
                  if (e.range.end.line >= lines || e.range.start.line < 0) failures.push(`formatting edit outside the document (${lines} lines): ${JSON.stringify(e.range)}`);
                }
              };
              const tokens = (r: unknown): void => {
                const data = (r as { data?: number[] } | null)?.data;
                if (data && data.length % 5 !== 0) failures.push(`semanticTokens: ${data.length} numbers, not a multiple of 5`);
              };
              log.push(`${s.kind} at ${JSON.stringify(position)} / ${JSON.stringify(lspRange)}`);
              const options = { tabSize: 2, insertSpaces: true };
              if (s.kind === 'completion') request('textDocument/completion', { textDocument, position });
              else if (s.kind === 'hover') request('textDocument/hover', { textDocument, position });
              else if (s.kind === 'definition') request('textDocument/definition', { textDocument, position });
              else if (s.kind === 'references') request('textDocument/references', { textDocument, position, context: { includeDeclaration: true } });
              else if (s.kind === 'highlight') request('textDocument/documentHighlight', { textDocument, position });
              else if (s.kind === 'formatting') request('textDocument/formatting', { textDocument, options }, inside);
              else if (s.kind === 'rangeFormatting') request('textDocument/rangeFormatting', { textDocument, range: lspRange, options }, inside);
              else if (s.kind === 'documentSymbol') request('textDocument/documentSymbol', { textDocument });
              else if (s.kind === 'semanticTokens') request('textDocument/semanticTokens/full', { textDocument }, tokens);
              else if (s.kind === 'semanticTokensRange') request('textDocument/semanticTokens/range', { textDocument, range: lspRange }, tokens);
              else if (s.kind === 'inlayHint') request('textDocument/inlayHint', { textDocument, range: lspRange });
              else if (s.kind === 'selectionRange') request('textDocument/selectionRange', { textDocument, positions: [position, positionIn(doc, s.range.start)] });
              else if (s.kind === 'implementation') request('textDocument/implementation', { textDocument, position });
              else if (s.kind === 'callHierarchy') {
                // prepare, then both directions on what the server prepared (as an editor does).
                void request('textDocument/prepareCallHierarchy', { textDocument, position }).then((items) => {
                  for (const item of (items as unknown[] | null) ?? []) {
                    request('callHierarchy/incomingCalls', { item });
                    request('callHierarchy/outgoingCalls', { item });
                  }
                });
              } else if (s.kind === 'codeAction') {
                const diagnostics = client.diagnostics.get(uri)?.diagnostics ?? [];
                request('textDocument/codeAction', { textDocument, range: s.at % 2 === 0 ? range(0, length) : lspRange, context: { diagnostics } });
              } else {
                // prepareRename, then rename if the server agreed (as an editor does).
                const newName = s.at % 2 === 0 ? 'x_renamed' : 'XRenamed';
                void request('textDocument/prepareRename', { textDocument, position }).then((prepared) => {
                  if (prepared) request('textDocument/rename', { textDocument, position, newName });
                });
              }
              continue;
            }
          }
          log.push(`edit ${JSON.stringify(edit)}`);
          client.edit(uri, [edit]);
          edits += 1;
        }
        // Wait for every answer (a rename is sent after its prepareRename is answered).
        for (let i = 0; i < pending.length; i++) await pending[i];

        // The server holds the text the changes mean: its diagnostics of the last version equal
        // those of a fresh open of the client's copy (a twin in the fresh copy of the workspace).
        {
          const after = client.published.length;
          client.sendRawChanges(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '' }], Math.max(client.version(uri), 0) + 1000);
          const version = client.version(uri);
          await client.waitFor(() => client.published.slice(after).some((p) => p.uri === uri && p.version === version), `diagnostics of ${rel} v${version}`);
          const edited = comparable(client.diagnostics.get(uri)?.diagnostics ?? []);
          const fresh = uriOf(path.join(ws, 'fresh', rel));
          const before = client.published.length;
          client.open(fresh, client.text(uri));
          const twin = comparable(await client.nextDiagnostics(fresh, () => true, before));
          client.close(fresh);
          if (JSON.stringify(edited) !== JSON.stringify(twin))
            failures.push(`the server's text of ${rel} is not the text the changes mean:\n  got ${JSON.stringify(edited)}\n  want ${JSON.stringify(twin)}\n  steps: ${log.join('\n    ')}`);
        }

        // Undo: back to the original text in one full-range edit, then wait for the check of that version.
        const after = client.published.length;
        client.replaceAll(uri, originals.get(rel)!);
        const version = client.version(uri);
        await client.waitFor(() => client.published.slice(after).some((p) => p.uri === uri && p.version === version), `diagnostics of ${rel} v${version}`);
        // A round trip: every publish sent with that check (other files of the tree) has arrived.
        await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });

        expect(client.alive(), 'the server process exited').toBe(true);
        const swallowed = client.logs.slice(logsBefore).filter((l) => /failed|\n\s+at /.test(l));
        for (const l of swallowed) failures.push(`logged: ${l.slice(0, 1000)}`);
        for (const other of TARGETS) {
          const got = comparable(client.diagnostics.get(uriOf(path.join(ws, other)))?.diagnostics ?? []);
          if (JSON.stringify(got) !== JSON.stringify(baselines.get(other)))
            failures.push(`after undo in ${rel}, diagnostics of ${other} differ from a fresh open:\n  got ${JSON.stringify(got)}\n  want ${JSON.stringify(baselines.get(other))}\n  steps: ${log.join('\n    ')}`);
        }
        expect(failures).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const nonEmpty = [...answered].map(([m, n]) => `${m.replace('textDocument/', '')} ${n}`).join(', ');
    console.log(`lsp fuzz: ${sequences} sequences, ${edits} edits, ${requests} requests (${refused} renames refused, ${cancelled} cancelled; non-empty answers: ${nonEmpty}), slowest answer ${slowest.ms.toFixed(0)} ms (${slowest.method}), server alive: ${client.alive()}, seed ${SEED}, ${seconds} s`);
    expect(client.alive()).toBe(true);
  }, 600_000);
});
