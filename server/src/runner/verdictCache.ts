// The verdicts of /validate by content: editors and CI send the same bundle again and again, and a
// verdict is a function of the request's method texts, `allow_signatures`, and what the runner
// holds fixed for its lifetime (the dry run, the model deck, the function modules). The cache keeps
// the answer body itself, so that a hit is byte for byte the answer of the miss that filled it.
//
// The package store is the one input that can change under a running runner: a method whose
// verdict read it (a dependency loaded or found missing) is never kept, and neither is an installed
// method (`method_ref`), whose files live in the store.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { LoadableSource, LoadedMethod } from './method.js';

export interface VerdictCacheLimits {
  /** 0: no cache. */
  maxEntries: number;
  /** Bytes of keys and answer bodies together. */
  maxBytes: number;
}

export class VerdictCache {
  private readonly entries: LRUCache<string, string> | undefined;

  constructor(limits: VerdictCacheLimits) {
    if (limits.maxEntries > 0) {
      this.entries = new LRUCache<string, string>({
        max: limits.maxEntries,
        maxSize: limits.maxBytes,
        // UTF-16 strings: two bytes per unit, the key a hex digest.
        sizeCalculation: (body, key) => 2 * (body.length + key.length),
      });
    }
  }

  /** The content address of a request, or undefined when its verdict may not be kept. */
  key(source: LoadableSource, allowSignatures: boolean): string | undefined {
    if (!this.entries || source.kind === 'installed') return undefined;
    const hash = createHash('sha256');
    // Lengths before every part, so that no two different requests write the same stream.
    const part = (text: string): void => {
      hash.update(`${text.length}:`);
      hash.update(text);
    };
    part(allowSignatures ? 'signatures' : 'no-signatures');
    if (source.kind === 'contents') {
      part('contents');
      part(String(source.contents.length));
      for (const text of source.contents) part(text);
      part(source.sources ? String(source.sources.length) : 'unnamed');
      for (const name of source.sources ?? []) part(name);
    } else {
      const files = Object.entries(source.files);
      part('files');
      part(String(files.length));
      for (const [name, text] of files) {
        part(name);
        part(text);
      }
    }
    return hash.digest('hex');
  }

  get(key: string): string | undefined {
    return this.entries?.get(key);
  }

  /** Keeps an answer body, unless the method's verdict read the package store. */
  set(key: string, method: LoadedMethod, body: string): void {
    if (!this.entries || !libraryFree(method)) return;
    this.entries.set(key, body);
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}

/** A method whose loading met no dependency: neither loaded one nor found one missing. */
function libraryFree(method: LoadedMethod): boolean {
  return method.tree.dependencies === undefined && method.findings.length === 0;
}
