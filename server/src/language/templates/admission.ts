// Admission to the template caches on second sight. A cache entry outlives the request that made
// it, so V8 copies it out of the young generation and promotes it; /validate of distinct bundles
// (an editor's successive versions, CI) brings templates that are never seen again, and caching
// them on first sight made every one of them survive collections for nothing. A text is kept from
// the second time it is asked for: a method run again, or a bundle checked again, compiles each of
// its templates once more, then reads them from the cache.

const FNV_OFFSET = 0x811c9dc5;

/** Remembers which texts were asked for, by a 30-bit hash (a collision only admits a text early). */
export class SecondSight {
  private readonly seen = new Set<number>();

  constructor(private readonly bound: number) {}

  /** Whether `text` (under `dialect`) was asked for before; remembers it when not. */
  admit(dialect: string, text: string): boolean {
    let h = FNV_OFFSET;
    for (let i = 0; i < dialect.length; i++) h = Math.imul(h ^ dialect.charCodeAt(i), 0x01000193);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    // 30 bits: a small integer in V8, stored in the set without a heap number.
    h = (h >>> 2) & 0x3fffffff;
    if (this.seen.has(h)) return true;
    if (this.seen.size >= this.bound) this.seen.clear();
    this.seen.add(h);
    return false;
  }

  clear(): void {
    this.seen.clear();
  }
}
