// Registry entries: the client family (what a client detects itself; never received as a body; no status).

import { bytes, family, id, ids, int, secs, step } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const client = family({});

export const CLIENT = [
  // no status / yes / runtime: the network or the runner is down; may come back.
  client({
    code: 'mthdsls.client.unreachable',
    title: 'Runner unreachable',
    retry: true,
    domain: 'runtime',
    params: [id('url', 'The runner base address that was tried.')],
    detail: 'The runner at {url} could not be reached.',
    client: [
      step('retry', 'Try again in a moment.'),
      step('change_input', 'Check the runner address in the settings and that the runner is started.'),
    ],
    others: [step('contact_owner', 'The runner operator checks that the runner is up and reachable.')],
    explanation:
      'The client could not connect to the runner: a wrong address, a runner that is not started, or a network failure.',
  }),
  // no status / yes / runtime: the runner may answer in time later; /start avoids long waits.
  client({
    code: 'mthdsls.client.timeout',
    title: 'Runner did not answer in time',
    retry: true,
    domain: 'runtime',
    params: [secs('seconds', 'The time the client waited.')],
    detail: 'The runner did not answer within {seconds}.',
    client: [
      step('retry', 'Try again, or raise the client timeout.'),
      step('change_input', 'For long methods use POST /start rather than /execute.'),
    ],
    others: [step('contact_owner', 'If the runner is slow for every request, its operator checks its load.')],
    explanation:
      'The client stopped waiting for an answer. A long method run through /execute, or an overloaded runner, are usual causes.',
  }),
  // no status / no / runtime: usually a wrong address (not a runner) or a protocol mismatch, which
  // repeating does not fix; a transient gateway page shows in the status.
  client({
    code: 'mthdsls.client.bad_response',
    title: 'Unexpected runner answer',
    retry: false,
    domain: 'runtime',
    params: [int('status', 'The HTTP status received.')],
    detail: 'The runner answered with status {status} and a body that is neither a problem document nor the expected result.',
    client: [
      step('change_input', 'Check that the address points at an MTHDS runner and not at a proxy or another service.'),
      step('upgrade', 'Compare the protocol version of GET /version with the client; update whichever is behind.'),
    ],
    others: [step('contact_owner', 'The runner operator checks the proxies in front of the runner.')],
    explanation:
      'The answer is neither an RFC 7807 problem document nor the shape the protocol gives for this route. A proxy error page, a wrong address or a protocol version mismatch are usual causes.',
  }),
  // no status / no / method: the document stays too large until it is split; the editor still
  // colours, folds and outlines it.
  client({
    code: 'mthdsls.client.document_too_large',
    title: 'Document too large to analyse',
    retry: false,
    domain: 'method',
    params: [bytes('size', 'The size of the document.'), bytes('limit', 'The largest document the language server analyses.')],
    detail: 'The document holds {size}, more than the {limit} the language server analyses: it is not checked, and only highlighting, folding and the outline are offered.',
    client: [step('change_method', 'Split the bundle into several files of one domain (a bundle of this size is generated or pasted by mistake).')],
    others: [step('change_method', 'The method owner splits the bundle; `mthds check` still checks it whole.')],
    explanation:
      'Checking a document holds the language server for a time that grows with its size. Past the limit, the document is left out of its method tree so that the other documents keep answering at once.',
  }),
  // no status / no / method: the template stays too long until it is shortened; the rest of the
  // document is analysed.
  client({
    code: 'mthdsls.client.template_too_long',
    title: 'Template too long to analyse',
    retry: false,
    domain: 'method',
    params: [id('pipe', 'The pipe whose template it is.'), id('template', 'The field holding the template.'), int('length', 'The length of the template, in characters.'), int('limit', 'The longest template the language server analyses, in characters.')],
    detail: 'The template {template} of pipe {pipe} holds {length} characters, more than the {limit} the language server analyses: the variables it reads are not checked here.',
    client: [step('change_method', 'Move the long text into an input (a document or text the pipe receives) and keep the template short.')],
    others: [step('change_method', 'The method owner shortens the template; `mthds check` still checks it whole.')],
    explanation:
      'Reading the variables of a template is one step of the language server that grows with its length. Past the limit the template is not read in the editor, so that the other documents keep answering at once; its pipe is not told of unused or undeclared inputs there.',
  }),
  // no status / no / method: where the client runs (a browser) the package store and the folders
  // outside the workspace cannot be read; repeating does not change it, the desktop tools can.
  client({
    code: 'mthdsls.client.packages_unreachable',
    title: 'Dependencies not reachable here',
    retry: false,
    domain: 'method',
    params: [ids('packages', 'The dependencies (aliases) and package addresses the method tree names.')],
    detail: 'The dependencies {packages} cannot be read here: this editor reaches no package store, so references into them are not checked.',
    client: [step('change_input', 'Check the method where the package store is read: the desktop editor or `mthds check`.')],
    others: [step('contact_owner', 'Nothing to do: the method itself may be valid.')],
    explanation:
      'An editor in a browser (vscode.dev, github.dev) reads the workspace through the editor and cannot reach the package store or folders outside the workspace. The dependencies of a tree are then said to be unreachable once, instead of each reference into them being reported as unresolved.',
  }),
] as const;
