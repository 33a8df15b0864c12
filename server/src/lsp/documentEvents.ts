// The notifications that change what is checked: documents opened, edited and closed, files changed
// on disk, workspace folders added or removed, settings changed. Each updates the session and tells
// the diagnostics (which schedule the checks); none checks anything itself. Registered by routes.ts.

import path from 'node:path';
import { FileChangeType, type Connection, type DidChangeConfigurationParams, type DidChangeWatchedFilesParams, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver';
import { isMethodFile } from '../workspace/scan.js';
import type { DiskChange } from '../workspace/session.js';
import type { ServerState } from './serverState.js';
import { forgetFileSymbols } from './symbols.js';
import { keepPiecesOnlyAt } from './textPieces.js';
import { PieceTextDocument } from './pieceDocument.js';
import { knownSize } from '../workspace/documentSize.js';
import { runInSlices } from '../util/steps.js';
import { oneTurn } from './messageTurns.js';

/** How long the line count of a document in pieces runs before queued messages go (ms). */
const LINE_COUNT_SLICE_MS = 5;

/** The steps of work on an open document, stopped once it is closed or replaced. */
function* whileOpen(state: ServerState, doc: PieceTextDocument, steps: Generator<void, void>): Generator<void, void> {
  for (const _ of steps) {
    if (state.documents.get(doc.uri) !== doc) return;
    yield;
  }
}

/** The text sync: the library keeps the documents; the session gets their text. */
export function listenToDocuments(connection: Connection, state: ServerState): void {
  const documents = state.documents;
  documents.onDidOpen((event) => {
    const { uri, languageId } = event.document;
    if (!state.isOurs(uri, languageId)) return;
    state.uris.set(state.uriToFile(uri), uri);
    // Its lines counted while nothing waits, ahead of its first edit.
    if (event.document instanceof PieceTextDocument) void runInSlices(whileOpen(state, event.document, event.document.lineCountSteps()), LINE_COUNT_SLICE_MS, state.pause ?? oneTurn);
  });

  documents.onDidChangeContent((event) => {
    state.guardEvent(() => {
      // The pieces of a text replaced are let go: the new one came whole, or in pieces of its own.
      keepPiecesOnlyAt(event.document.uri, event.document.version);
      const file = state.ourFile(event.document.uri);
      if (file === undefined || !state.uris.has(file)) return;
      const text = event.document.getText();
      // Its size is known piece by piece: counted on the text, the rope would be made flat.
      if (event.document instanceof PieceTextDocument) knownSize(text, event.document.utf8Size);
      const id = state.session.setDocument(file, text);
      state.diagnostics?.documentChanged(file, id);
    });
  });

  documents.onDidClose((event) => {
    state.guardEvent(() => {
      keepPiecesOnlyAt(event.document.uri, undefined);
      const file = state.ourFile(event.document.uri);
      if (file === undefined || !state.uris.has(file)) return;
      const { id, dropped } = state.session.closeDocument(file);
      state.uris.delete(file);
      forgetFileSymbols(file);
      if (dropped) state.diagnostics?.dropTree(id.key);
      else state.diagnostics?.schedule(id);
    });
  });

  documents.listen(connection);
}

export function configurationChanged(state: ServerState, params: DidChangeConfigurationParams): void {
  void state.refreshSettings(params.settings).then(() => state.diagnostics?.flushDirty());
}

export function watchedFilesChanged(state: ServerState, params: DidChangeWatchedFilesParams): void {
  state.guardEvent(() => {
    let structural = false;
    const texts: string[] = [];
    for (const change of params.changes) {
      const file = state.uriToFile(change.uri);
      if (state.isStructuresFile(file)) state.loadStructures();
      if (!path.isAbsolute(file) || !isMethodFile(file)) continue;
      const kind: DiskChange = change.type === FileChangeType.Created ? 'created' : change.type === FileChangeType.Deleted ? 'deleted' : 'changed';
      if (state.session.diskChanged(file, kind)) structural = true;
      if (kind !== 'deleted') texts.push(file);
    }
    // A manifest came or went: trees regroup, so find them all again.
    if (structural) void state.scans?.rescan().then((trees) => (trees !== undefined ? state.diagnostics?.requestUpdate() : undefined));
    state.diagnostics?.requestUpdate(structural ? [] : texts);
  });
}

export function workspaceFoldersChanged(state: ServerState, event: WorkspaceFoldersChangeEvent): void {
  state.guardEvent(() => {
    const session = state.session;
    const removed = new Set(event.removed.map((f) => state.uriToFile(f.uri)));
    const added = event.added.map((f) => state.uriToFile(f.uri)).filter((f) => path.isAbsolute(f) && !removed.has(f));
    const folders = [...new Set([...session.getFolders().filter((f) => !removed.has(f)), ...added])];
    session.setFolders(folders);
    // Checked once the walk of this folder set ends; a walk replaced by a later change never is.
    const diag = state.diagnostics!;
    void state.scans!.rescan().then((trees) => (trees !== undefined ? diag.flushDirty() : undefined));
  });
}
