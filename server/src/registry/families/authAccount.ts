// Registry entries: the auth and account families.

import { family, id, int, secs, step } from './define.js';

/** An entry of this family: { domain: 'account' } unless it says otherwise. */
const account = family({ domain: 'account' });

export const AUTH_ACCOUNT = [
  account({
    code: 'auth.missing_credential',
    title: 'Credential missing',
    status: 401,
    retry: false,
    detail: 'This route needs a credential and none was sent.',
    client: [step('check_credentials', 'Send a bearer token in the Authorization header.')],
    others: [step('request_access', 'Ask the runner operator for a credential.')],
    explanation:
      'The route needs a credential and the request carried no Authorization header. Only GET /version is always public.',
  }),
  account({
    code: 'auth.invalid_credential',
    title: 'Credential refused',
    status: 401,
    retry: false,
    detail: 'The credential sent is unknown, revoked or malformed.',
    client: [step('check_credentials', 'Check the token: it must be sent as "Bearer <token>" and still be valid.')],
    others: [step('request_access', 'Ask the runner operator for a new credential if it was revoked.')],
    explanation:
      'The runner does not accept the credential: it is unknown, was revoked, or is not a well-formed bearer token. A copy-paste error or a token of another environment are common causes.',
  }),
  account({
    code: 'auth.credential_expired',
    title: 'Credential expired',
    status: 401,
    retry: false,
    detail: 'The credential was valid and is past its expiry.',
    client: [step('refresh', 'Obtain a fresh credential and send the request again.')],
    others: [step('request_access', 'Ask for a credential with a longer lifetime if expiries are frequent.')],
    explanation: 'The credential was valid but has expired. Renew it and repeat the request.',
  }),
  account({
    code: 'auth.forbidden',
    title: 'Permission missing',
    status: 403,
    retry: false,
    params: [id('requirement', 'The role, flag or session the operation needs.')],
    detail: 'The authenticated identity lacks {requirement}, which this operation needs.',
    client: [step('request_access', 'Ask the operator of the runner to grant the missing requirement.')],
    others: [step('request_access', 'An administrator can grant the requirement to this identity.')],
    explanation:
      'The credential is valid but the identity lacks a role, flag or session the operation needs. Repeating the request does not help until access is granted.',
  }),
  account({
    code: 'account.rate_limited',
    title: 'Rate limit reached',
    status: 429,
    retry: true,
    params: [int('limit', 'Number of requests allowed per window.'), secs('window', 'Length of the window.')],
    detail: 'More than {limit} requests were sent within {window}.',
    client: [
      step('wait', 'Wait for retry_after seconds when given, otherwise until the window has passed.'),
      step('retry', 'Repeat the request unchanged, and spread later requests over time.'),
    ],
    others: [step('check_account', 'Check the account plan if the rate is regularly too low.')],
    explanation:
      'The account sent more requests than its rate allows in one window. The request itself is fine and can be repeated later.',
  }),
  account({
    code: 'account.quota_exhausted',
    title: 'Quota exhausted',
    status: 429,
    retry: false,
    params: [id('quota', 'Name of the spent quota.')],
    detail: 'The account quota {quota} is spent.',
    client: [step('check_account', 'Check the quota in the account settings; it renews or must be raised.')],
    others: [step('upgrade', 'The account owner can raise the quota or wait for it to renew.')],
    explanation:
      'A quota other than the request rate (for example monthly runs or spend) is used up. Requests are refused until it renews or is raised.',
  }),
] as const;
