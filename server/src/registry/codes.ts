// Every error code, as data: one file per family under families/, each entry made by its family's
// constructor (families/define.ts); this file lists them in the registry's order.
//
// Core codes (families request, auth, account, input, method, and the three warnings) follow the
// error registry 8.0.0 exactly: status, retry, domain and parameters (names, types, enum values,
// optional markers) are those of `runner-protocol-and-error-registry.md`; test/unit/registry/
// registry-doc.test.ts parses that document and checks these entries against it. Titles, detail
// templates, advice and explanations are ours (the registry does not publish its texts).
//
// `pipe.output_multiplicity` is core too: the registry names it as the run-time twin of
// `method.output_multiplicity_mismatch` without listing it; its parameters mirror that code.
//
// The registry leaves the families pipe, model, provider, run, security, runtime and client
// unlisted. Codes this implementation needs there are EXTENSION codes under the prefix `mthdsls`
// (e.g. `mthdsls.pipe.execution_failed`), `extension: true`, documented under a base address of our
// own (see problem.ts). Their status / retry / domain choices are justified next to each entry.
//
// Detail template syntax (see detail.ts): `{name}` placeholder; `[ … ]` optional segment, dropped
// when a parameter it names is absent or an empty list; `\` escapes the next character.

import { REQUEST } from './families/request.js';
import { AUTH_ACCOUNT } from './families/authAccount.js';
import { INPUT } from './families/input.js';
import { METHOD } from './families/method.js';
import { WARNINGS } from './families/warnings.js';
import { PIPE } from './families/pipe.js';
import { MODEL } from './families/model.js';
import { PROVIDER } from './families/provider.js';
import { RUN } from './families/run.js';
import { SECURITY } from './families/security.js';
import { RUNTIME } from './families/runtime.js';
import { CLIENT } from './families/client.js';

export { EXTENSION_PREFIX } from './families/define.js';

/** Every entry, core first (in the registry's order), then the extensions. */
export const REGISTRY_ENTRIES = [
  ...REQUEST,
  ...AUTH_ACCOUNT,
  ...INPUT,
  ...METHOD,
  ...WARNINGS,
  ...PIPE,
  ...MODEL,
  ...PROVIDER,
  ...RUN,
  ...SECURITY,
  ...RUNTIME,
  ...CLIENT,
] as const;

/** Every code of the registry, core and extension, as a literal union. */
export type RegistryCode = (typeof REGISTRY_ENTRIES)[number]['code'];
