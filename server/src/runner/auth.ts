// Bearer tokens: compared as SHA-256 digests with crypto.timingSafeEqual, every configured token
// tried (no early exit), so that neither the length nor the position of a match leaks through
// timing. Without configured tokens the runner is anonymous (self-hosted use).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { ResolvedToken } from './config.js';
import { Refusal } from './refusal.js';

export type Identity =
  | { kind: 'anonymous'; key: string }
  | { kind: 'token'; key: string; name: string; scopes?: ReadonlySet<string> };

/** The route tag each protected route needs (protocol tags: run, validate, discovery). */
export type Scope = 'run' | 'validate' | 'discovery';

const CHALLENGE = 'Bearer realm="mthds"';

export function authenticate(header: string | undefined, tokens: readonly ResolvedToken[], clientAddress: string, now = Date.now()): Identity {
  if (tokens.length === 0) return { kind: 'anonymous', key: `addr:${clientAddress}` };
  if (header === undefined || header.trim() === '') {
    throw new Refusal('auth.missing_credential', {}, { headers: { 'WWW-Authenticate': CHALLENGE } });
  }
  const invalid = new Refusal('auth.invalid_credential', {}, { headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` } });
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw invalid;
  const digest = createHash('sha256').update(match[1]!, 'utf8').digest();
  let found: ResolvedToken | undefined;
  for (const token of tokens) {
    if (timingSafeEqual(digest, token.sha256) && !found) found = token;
  }
  if (!found) throw invalid;
  if (found.expiresAt !== undefined && now >= found.expiresAt) {
    throw new Refusal('auth.credential_expired', {}, { headers: { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token", error_description="expired"` } });
  }
  const identity: Identity = { kind: 'token', key: `token:${found.name}`, name: found.name };
  if (found.scopes) identity.scopes = found.scopes;
  return identity;
}

export function authorize(identity: Identity, scope: Scope): void {
  if (identity.kind === 'token' && identity.scopes && !identity.scopes.has(scope)) {
    throw new Refusal('auth.forbidden', { requirement: scope });
  }
}
