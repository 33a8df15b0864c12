// What the navigation, symbol, formatting and graph features share: the host (the server's state,
// behind getters) and the document under a request. No handler registration here (routes.ts).

import { sizePastLimit } from '../workspace/documentSize.js';
import path from 'node:path';
import { ErrorCodes, ResponseError, type ClientCapabilities } from 'vscode-languageserver';
import type { Bundle } from '../language/model.js';
import { MANIFEST_FILE } from '../language/spec/manifest.js';
import { bundleOfFile, type MethodTree } from '../language/tree.js';
import { parseToml } from '../syntax/document.js';
import { positionToOffset, type Position } from '../syntax/positions.js';
import type { TomlDocument } from '../syntax/types.js';
import type { FileId, Session, TreeCheck } from '../workspace/session.js';
import type { TextLocator } from './convert.js';
import type { Views } from './views.js';
import { ObjectCache } from '../util/objectCache.js';

/** What the features need from the server (getters: the session is replaced at initialize). */
export interface FeatureHost {
  session(): Session;
  /** The current check of the tree of a file (checked now when due). */
  ensureCurrent(file: FileId): TreeCheck | undefined;
  /** Checks a tree now (for trees whose parsed documents were released). */
  checkTree(key: string): TreeCheck | undefined;
  /** The latest finished check with the open buffers parsed ahead (never waits for a check). */
  views: Views;
  locator: TextLocator;
  versionOf(file: FileId): number | undefined;
  /** The pieces an open document's text is kept in (a document past the analysed size), if so. */
  piecesOf?(uri: string): readonly string[] | undefined;
  ourFile(uri: string): FileId | undefined;
  capabilities(): ClientCapabilities;
  log(message: string): void;
}

/** What a request about one document works on. */
export interface DocContext {
  file: FileId;
  text: string;
  lineStarts: readonly number[];
  offset(position: Position): number;
}

export type FeatureContext = {
  host: FeatureHost;
  docOf(uri: string): DocContext | undefined;
  /** The current check's tree and bundle of a document (checked now when due: rename). */
  bundleOf(doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined;
  /** The tree and bundle of a document from the latest finished check, its buffer parsed ahead. */
  viewOf(doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined;
  tomlOf(doc: DocContext): TomlDocument;
};

/** The context of the navigation, symbol, formatting and graph requests, over the server's state. */
export function featureContext(host: FeatureHost): FeatureContext {
  const docOf = (uri: string): DocContext | undefined => {
    const file = host.ourFile(uri);
    if (file === undefined) return undefined;
    const text = host.session().textOf(file);
    // A document past the analysed size is never parsed: only the light features read it (largeDocuments.ts).
    if (text === undefined || sizePastLimit(text) !== undefined) return undefined;
    const lineStarts = host.session().lineStartsOf(file);
    return { file, text, lineStarts, offset: (p) => positionToOffset(lineStarts, text, p) };
  };
  /** The tree and bundle of a document; the bundle is the tree's own (up to date with the buffer). */
  const bundleOf = (doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined => {
    if (path.basename(doc.file) === MANIFEST_FILE) return undefined;
    const tree = host.ensureCurrent(doc.file)?.tree;
    const bundle = tree?.bundles.find((b) => b.file === doc.file);
    return tree && bundle && bundle.doc.text === doc.text ? { tree, bundle } : undefined;
  };
  /** The same from the latest finished check, the buffer parsed ahead: never waits for a check. */
  const viewOf = (doc: DocContext): { tree: MethodTree; bundle: Bundle } | undefined => {
    const view = host.views.viewOf(doc.file);
    return view && view.text === doc.text ? { tree: view.tree, bundle: view.bundle } : undefined;
  };
  // Syntax-only features need no check: they read the parse the session made of this text (its
  // view, shared with the check), else parse it themselves, reusing the last parse of that file
  // (a parse of a 0.5 MB bundle from scratch, at each change, held the server 40-90 ms).
  let lastParsed: { file: string; text: string; doc: TomlDocument } | undefined;
  const tomlOf = (doc: DocContext): TomlDocument => {
    const view = viewOf(doc);
    if (view) return view.bundle.doc;
    if (lastParsed?.text !== doc.text || lastParsed.file !== doc.file) lastParsed = { file: doc.file, text: doc.text, doc: parseToml(doc.text, lastParsed?.file === doc.file ? lastParsed.doc : undefined) };
    return lastParsed.doc;
  };
  return { host, docOf, bundleOf, viewOf, tomlOf };
}

const treeLocators = new ObjectCache<MethodTree, TextLocator>('treeLocators');

/**
 * Converts with the line starts of the tree's own documents: a closed file's text is then not read
 * again from disk for each range (references and renames touch many files).
 */
export function locatorFor(tree: MethodTree, base: TextLocator): TextLocator {
  let locator = treeLocators.get(tree);
  if (!locator) {
    // Through the tree's own index of files (kept across updates of the tree), not a map of every
    // document made again for each new tree: each check of a large tree makes one.
    const docOf = (file: string): TomlDocument | undefined => (tree.manifest?.file === file ? tree.manifest.doc : bundleOfFile(tree, file)?.doc);
    locator = { uriOf: (file) => base.uriOf(file), lineStartsOf: (file) => docOf(file)?.lineStarts ?? base.lineStartsOf(file) };
    treeLocators.set(tree, locator);
  }
  return locator;
}

/** A refusal the client shows to the user (rename with an invalid name, say). */
export function refuse(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidRequest, message);
}
