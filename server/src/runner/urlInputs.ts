// URL inputs of a run: the `url` and `public_url` of every Image and Document content the inputs
// hold (refinements, nested structures and lists included, and any object that calls itself an
// Image or a Document through `_concept_code`, which templates trust). Checked when the request
// arrives, before anything runs: an http(s) URL whose host is, or resolves to, a loopback, private
// or link-local address is refused (mthdsls.security.address_refused) unless the configuration
// allows private addresses; a `file:` URL is refused (mthdsls.security.path_refused), since a run
// never reads the runner's disk. Downloads made later go through the guarded lookup again.

import { nativeBase, type ConceptCatalog, type ConceptInfo } from '../language/jsonSchema.js';
import { CONCEPT_CODE_KEY } from '../language/templates/render.js';
import type { NetworkPolicy } from './deckConfig.js';
import type { WorkingMemory } from './execute/memory.js';
import { checkUrlAddress, hostOf, literalVerdict } from './network.js';
import { fieldPath, Refusal } from './refusal.js';

const URL_KINDS = new Set(['Image', 'Document']);
const URL_MEMBERS = ['url', 'public_url'] as const;
/** Distinct host names resolved for one request; more is refused (each costs a DNS lookup). */
const MAX_NAMES = 32;
const MAX_DEPTH = 64;

export interface UrlSite {
  /** Dotted path in the request, e.g. inputs.photo.content.url. */
  field: string;
  input: string;
  /** Dotted path inside the input's content, e.g. url or cover.url. */
  inner: string;
  url: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function claimedKind(v: Record<string, unknown>): string | undefined {
  const c = v[CONCEPT_CODE_KEY];
  return typeof c === 'string' ? c.slice(c.lastIndexOf('.') + 1) : undefined;
}

/** Every URL member of a URL-bearing content in the bound inputs. */
export function urlSites(catalog: ConceptCatalog, memory: WorkingMemory): UrlSite[] {
  const sites: UrlSite[] = [];
  const walk = (input: string, info: ConceptInfo | undefined, value: unknown, path: Array<string | number>, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(input, info, item, [...path, i], depth + 1));
      return;
    }
    if (!isRecord(value)) return;
    const kind = info ? nativeBase(info)?.code : undefined;
    if ((kind !== undefined && URL_KINDS.has(kind)) || URL_KINDS.has(claimedKind(value) ?? '')) {
      for (const member of URL_MEMBERS) {
        const url = value[member];
        if (typeof url === 'string') sites.push({ field: fieldPath(...path, member), input, inner: fieldPath(...path.slice(3), member), url });
      }
    }
    for (const [key, child] of Object.entries(value)) {
      const field = info?.shape === 'structured' ? info.fields.find((f) => f.name === key) : undefined;
      const typed = field && (field.type === 'concept' || (field.type === 'list' && field.itemType === 'concept')) && field.concept ? catalog.byRef(field.concept) : undefined;
      walk(input, typed, child, [...path, key], depth + 1);
    }
  };
  for (const [name, stuff] of memory.root) {
    walk(name, stuff.concept, stuff.content, ['inputs', name, 'content'], 0);
  }
  return sites;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Refuses the run when a URL input names an address the runner must not contact. */
export async function checkUrlInputs(catalog: ConceptCatalog, memory: WorkingMemory, network: NetworkPolicy): Promise<void> {
  const pending = new Map<string, { url: URL; field: string }>();
  for (const site of urlSites(catalog, memory)) {
    const url = parse(site.url);
    if (!url) {
      // An http(s) address that does not parse: a fault of the content, whatever would fetch it.
      if (/^[\s\u0000-\u001f]*https?:/i.test(site.url)) throw new Refusal('input.invalid', { input: fieldPath(site.input), field: site.inner }, { location: { field: site.field } });
      continue;
    }
    if (url.protocol === 'file:') {
      throw new Refusal('mthdsls.security.path_refused', { field: site.field, path: fieldPath(decodeURIComponentSafe(url.pathname) || '/') });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const verdict = literalVerdict(url, site.field, network.allowPrivate);
    if (verdict instanceof Refusal) throw verdict;
    if (verdict === 'name' && !pending.has(hostOf(url))) pending.set(hostOf(url), { url, field: site.field });
  }
  if (pending.size > MAX_NAMES) {
    const [first] = pending.values();
    throw new Refusal('request.invalid', { field: first!.field }, { detail: `The inputs name ${pending.size} distinct hosts in URLs; at most ${MAX_NAMES} are accepted in one request.` });
  }
  await Promise.all([...pending.values()].map(({ url, field }) => checkUrlAddress(url, { field, allowPrivate: network.allowPrivate, unresolved: 'lenient' })));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
