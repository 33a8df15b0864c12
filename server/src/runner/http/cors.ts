// Cross-origin access for pages and editors in a browser (vscode.dev, github.dev): which origins
// the operator allows, the answer to a browser's preflight, and the headers an actual answer
// carries so that the page may read it. Without allowed origins nothing here adds a header.
//
// Why `*` needs bearer tokens and why no Access-Control-Allow-Credentials: the runner's credential
// is the Authorization header, which a page's script must set itself (the browser never attaches
// it on its own, unlike a cookie), so a page that does not hold a token gains nothing from `*`.
// A runner without tokens has no such guard: its only protection is where it listens (loopback, a
// private network), and `*` would let any page the user opens use it from inside that network,
// spending its providers' keys. Credentials mode is never granted: the runner reads no cookies.

export const CORS_ANY = '*';

/** One allowed origin: exact, `scheme://*.domain[:port]` (any subdomain), or anything. */
export type OriginRule = { kind: 'exact'; origin: string } | { kind: 'subdomains'; protocol: string; suffix: string; port: string } | { kind: 'any' };

export interface CorsPolicy {
  rules: readonly OriginRule[];
  maxAgeSeconds: number;
}

export const DEFAULT_CORS_MAX_AGE_SECONDS = 600;

// What the preflight allows is not narrowed to the route asked for: a method or path the runner
// refuses is better refused by the actual request, whose problem document the page can read,
// than by a preflight, which the browser reports as an opaque network error.
const ALLOW_METHODS = 'GET, HEAD, POST';
/** The request headers the runner reads (Content-Type beyond the safelisted values included). */
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-ID';
/** The response headers a client reads besides the safelisted ones. */
const EXPOSE_HEADERS = 'Location, Retry-After, X-Request-ID, Idempotent-Replayed, WWW-Authenticate, Allow';

const SUBDOMAIN_WILDCARD = /^([a-z][a-z0-9+.-]*:\/\/)\*\.(.*)$/i;

/**
 * Reads one configured origin; a problem naming what is wrong otherwise (and the origin meant,
 * when the value is a URL with more than an origin).
 */
export function parseOriginRule(value: unknown): { ok: true; rule: OriginRule } | { ok: false; problem: string } {
  if (typeof value !== 'string' || value === '') return { ok: false, problem: 'must be an origin such as https://vscode.dev, a subdomain pattern such as https://*.vscode-cdn.net, or *' };
  if (value === CORS_ANY) return { ok: true, rule: { kind: 'any' } };
  const shown = JSON.stringify(value.slice(0, 200));
  // `null` is the origin of sandboxed frames and local files: every such page shares it.
  if (value.toLowerCase() === 'null') return { ok: false, problem: `${shown} cannot be allowed: it is the origin shared by every sandboxed frame and local file` };
  const wildcard = SUBDOMAIN_WILDCARD.exec(value);
  // The wildcard label is read as a plain one so that the rest is checked as any origin is.
  const checked = checkOrigin(wildcard ? `${wildcard[1]}x.${wildcard[2]}` : value, shown, wildcard !== null);
  if (!checked.ok) return checked;
  const url = checked.url;
  if (!wildcard) return { ok: true, rule: { kind: 'exact', origin: url.origin } };
  const suffix = url.hostname.slice(1);
  if (!/^\.[^.]+\.[^.]+/.test(suffix) || /^\.[0-9.]+$/.test(suffix) || url.hostname.startsWith('[')) {
    return { ok: false, problem: `${shown}: a subdomain pattern needs a domain of at least two labels after *. (such as https://*.vscode-cdn.net)` };
  }
  return { ok: true, rule: { kind: 'subdomains', protocol: url.protocol, suffix, port: url.port } };
}

function checkOrigin(value: string, shown: string, wildcard: boolean): { ok: true; url: URL } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, problem: `${shown} is not an origin (scheme://host[:port], such as https://vscode.dev)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: `${shown}: only http and https origins can be allowed` };
  // URLs accept `*` in a host name; an origin pattern has it only as the whole first label.
  if (url.hostname.includes('*')) return { ok: false, problem: `${shown} is not an origin: * stands for the whole first label only (https://*.example.com) or for every origin` };
  // Browsers send the serialized origin: lower-case host, no default port, no path.
  if (url.origin !== value) {
    const meant = wildcard ? url.origin.replace('://x.', '://*.') : url.origin;
    return { ok: false, problem: `${shown} is not an origin as browsers send it (scheme://host[:port], no path, no trailing slash): did you mean ${meant}?` };
  }
  return { ok: true, url };
}

/** The Access-Control-Allow-Origin value for a request's Origin header, or undefined: not allowed. */
export function allowedOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (origin === undefined || origin === '') return undefined;
  for (const rule of policy.rules) {
    if (rule.kind === 'any') return CORS_ANY;
    if (rule.kind === 'exact' && rule.origin === origin) return origin;
    if (rule.kind === 'subdomains' && matchesSubdomains(rule, origin)) return origin;
  }
  return undefined;
}

function matchesSubdomains(rule: Extract<OriginRule, { kind: 'subdomains' }>, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // Only a well-formed serialized origin: `https://evil.example/.vscode-cdn.net` is no subdomain.
  if (url.origin !== origin || url.protocol !== rule.protocol || url.port !== rule.port) return false;
  return url.hostname.length > rule.suffix.length && url.hostname.endsWith(rule.suffix);
}

/** A browser's preflight: OPTIONS naming the method it means to send, without a body. */
export function isPreflight(method: string, headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  if (method !== 'OPTIONS' || headers['origin'] === undefined || headers['access-control-request-method'] === undefined) return false;
  const length = headers['content-length'];
  return (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
}

/** Every answer of a runner that allows origins depends on the Origin header. */
export const VARY = 'Origin';

/** The headers of the answer to a preflight (204); none that allow anything for an origin not allowed. */
export function preflightHeaders(policy: CorsPolicy, origin: string | undefined, headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const allowed = allowedOrigin(policy, origin);
  if (allowed === undefined) return { Vary: VARY };
  const out: Record<string, string> = {
    Vary: VARY,
    'Access-Control-Allow-Origin': allowed,
    'Access-Control-Allow-Methods': ALLOW_METHODS,
    'Access-Control-Allow-Headers': ALLOW_HEADERS,
    'Access-Control-Max-Age': String(policy.maxAgeSeconds),
  };
  // A public page (vscode.dev) reaching a runner on loopback or a private network: Chromium asks
  // first whether the runner accepts requests from outside its network.
  if (headers['access-control-request-private-network'] === 'true') out['Access-Control-Allow-Private-Network'] = 'true';
  return out;
}

/** The headers an actual answer carries for the request's Origin (only Vary when it is not allowed). */
export function responseHeaders(policy: CorsPolicy, origin: string | undefined): Record<string, string> {
  const allowed = allowedOrigin(policy, origin);
  if (allowed === undefined) return { Vary: VARY };
  return { Vary: VARY, 'Access-Control-Allow-Origin': allowed, 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
}
