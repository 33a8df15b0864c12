// What the navigation, symbol, formatting and graph features share: the host (the server's state,
// behind getters) and the document under a request. No handler registration here (features.ts).

import { ErrorCodes, ResponseError, type ClientCapabilities } from 'vscode-languageserver';
import type { Bundle } from '../language/model.js';
import { bundleOfFile, type MethodTree } from '../language/tree.js';
import type { Position } from '../syntax/positions.js';
import type { TomlDocument } from '../syntax/types.js';
import type { FileId, Session, TreeCheck } from '../workspace/session.js';
import type { RequestGuard } from './clamp.js';
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
  ourFile(uri: string): FileId | undefined;
  capabilities(): ClientCapabilities;
  log(message: string): void;
  /** The registration wrapper of every request handler (clamped positions, failures answered empty). */
  guard: RequestGuard;
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
