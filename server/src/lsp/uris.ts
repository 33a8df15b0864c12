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
  if (!path.isAbsolute(file)) return file;
  let uri = madeUris.get(file);
  if (uri === undefined) {
    if (madeUris.size >= MAX_MADE_URIS) madeUris.clear();
    uri = pathToFileURL(file).href;
    madeUris.set(file, uri);
  }
  return uri;
}

// The URIs made of paths: publishing an update converts every fix of every finding, each edit
// naming its file (a branch switch: about 14,000 conversions of the same 2,000 paths, 80 ms made
// afresh each time). Bounded: emptied when it holds too many.
const madeUris = new Map<string, string>();
const MAX_MADE_URIS = 50_000;
