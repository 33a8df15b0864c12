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
    uri = PLAIN_POSIX_PATH.test(file) ? `file://${file}` : pathToFileURL(file).href;
    madeUris.set(file, uri);
  }
  return uri;
}

// A POSIX path that `pathToFileURL` leaves as it is: segments of letters, digits, `_`, `-` and `.`
// (none starting with a dot: no `.` or `..` to resolve), nothing to escape. Its URI is `file://`
// and the path; making it through the URL parser cost 3-5 µs a path (20 ms of the start-up's
// publishing at 5,000 bundles).
const PLAIN_POSIX_PATH = process.platform === 'win32' ? /^(?!)/ : /^(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/;

// The URIs made of paths: publishing an update converts every fix of every finding, each edit
// naming its file (a branch switch: about 14,000 conversions of the same 2,000 paths, 80 ms made
// afresh each time). Bounded: emptied when it holds too many.
const madeUris = new Map<string, string>();
const MAX_MADE_URIS = 50_000;
