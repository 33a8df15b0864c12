// URIs <-> file identities in the browser, where the workspace lives on the editor's virtual file
// systems (`vscode-vfs://github/owner/repo/...` on github.dev and vscode.dev): a hierarchical URI is
// known by the absolute posix path `/<scheme>/<authority>/<path>` (an empty authority written `-`),
// so that the files of a package share its folders and the walks and trees work as on a disk. Any
// other document (untitled, a URI without a path) is known by its URI and checked alone.

import type { UriMapping } from './host.js';

const HIERARCHICAL = /^([a-zA-Z][\w+.-]*):\/\/([^/?#]*)(\/[^?#]*)?$/;
const NO_AUTHORITY = '-';

export const browserUris: UriMapping = {
  toFile(uri: string): string {
    const m = HIERARCHICAL.exec(uri);
    if (!m || m[1] === 'untitled') return uri;
    let rest: string;
    try {
      rest = decodeURIComponent(m[3] ?? '/');
    } catch {
      return uri;
    }
    return `/${m[1]!.toLowerCase()}/${m[2] === '' ? NO_AUTHORITY : m[2]}${rest === '' ? '/' : rest}`.replace(/\/+$/, '') || '/';
  },
  toUri(file: string): string {
    if (!file.startsWith('/')) return file;
    const [, scheme, authority, ...rest] = file.split('/');
    if (!scheme || authority === undefined) return file;
    return `${scheme}://${authority === NO_AUTHORITY ? '' : authority}/${rest.map(encodeURIComponent).join('/')}`;
  },
};
