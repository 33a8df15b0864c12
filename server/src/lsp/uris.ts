// URIs <-> the session's file identities: a `file:` URI is known by its absolute path (so that
// buffers and files on disk meet), any other document by its URI.

import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export function uriToFile(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return path.resolve(fileURLToPath(uri));
    } catch {
      return uri;
    }
  }
  return uri;
}

/** The URI of a file identity; `known` holds the URIs clients used for their open documents. */
export function fileToUri(file: string, known?: ReadonlyMap<string, string>): string {
  const given = known?.get(file);
  if (given !== undefined) return given;
  return path.isAbsolute(file) ? pathToFileURL(file).href : file;
}
