// Registry entries: the security family (refusals for safety; an implementation may also record them as security events).

import { CLIENT_AUTHOR, family, id, step } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const security = family({});

export const SECURITY = [
  // 422 / no / input: the request names an address the runner will never contact (SSRF guard).
  security({
    code: 'mthdsls.security.address_refused',
    title: 'Address refused',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      id('field', 'Dotted path of the member holding the address, e.g. callback_url or inputs.page.content.url.'),
      id('host', 'The host of the refused address.'),
    ],
    detail: 'The address in {field} points at {host}, a loopback, private or link-local host, which this runner refuses to contact.',
    client: [step('change_input', 'Use a public address, or send the content itself instead of a URL.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A URL input or callback address points at a loopback, private or link-local host. Runners refuse such addresses so that requests cannot reach their internal network.',
  }),
  // 422 / no / input: the request names a file outside the allowed tree (path traversal guard).
  security({
    code: 'mthdsls.security.path_refused',
    title: 'Path refused',
    status: 422,
    retry: false,
    domain: 'input',
    params: [id('field', 'Dotted path of the member holding the path.'), id('path', 'The refused path.')],
    detail: 'The path {path} in {field} leaves the allowed tree and is refused.',
    client: [step('change_input', 'Use a relative path inside the allowed tree.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A file path escapes the tree the runner allows (an absolute path, .. segments, a symbolic link out). Runners refuse such paths so that requests cannot read other files.',
  }),
] as const;
