// What a check keeps between checks of one tree so that the next one costs what changed: the
// findings of every source (a bundle's rules, a domain's name conflicts, the cycles...) assembled
// per file, and which sources read which files and names (see ARCHITECTURE.md, "Incremental
// analysis").

import { compareFindings, type Finding } from './finding.js';

/**
 * Where findings come from, in the order a check from scratch reports them: findings equal by
 * compareFindings keep that order, so a file's list is assembled from its sources in this order.
 * A source key is its family's letter and its identity (a file, a domain).
 */
export const FAMILIES = {
  /** Faults found before the check (layout, reading, dependencies), as the caller lists them. */
  extra: 'a',
  /** A bundle's rules (`checkBundle`). */
  bundle: 'b',
  /** A domain's name conflicts. */
  duplicates: 'c',
  /** A bundle's own name conflicts. */
  names: 'd',
  cycles: 'e',
  /** A domain's signature agreement. */
  signatures: 'f',
  /** A bundle's redundant force markers. */
  force: 'g',
  manifest: 'h',
} as const;

export type Family = (typeof FAMILIES)[keyof typeof FAMILIES];

export function sourceKey(family: Family, id = ''): string {
  return family + id;
}

const NONE: readonly Finding[] = [];

/**
 * Every source's findings and each file's list made of them. Sources with no findings are not
 * kept. `set` records a source's new findings (kept as they were when equal, so that the files'
 * lists keep their objects); `assemble` remakes the lists of the files touched since.
 */
export class FileFindings {
  private readonly sources = new Map<string, readonly Finding[]>();
  /** Per file, the part of each source with findings there. */
  private readonly parts = new Map<string, Map<string, readonly Finding[]>>();
  /** The sorted findings of each file that has some. */
  readonly byFile = new Map<string, Finding[]>();
  private readonly touched = new Set<string>();

  get(key: string): readonly Finding[] {
    return this.sources.get(key) ?? NONE;
  }

  keys(): IterableIterator<string> {
    return this.sources.keys();
  }

  set(key: string, findings: readonly Finding[]): void {
    const old = this.sources.get(key) ?? NONE;
    if (old === findings || (old.length === 0 && findings.length === 0) || sameFindings(old, findings)) return;
    for (const file of filesOf(old)) {
      const parts = this.parts.get(file)!;
      parts.delete(key);
      if (parts.size === 0) this.parts.delete(file);
      this.touched.add(file);
    }
    if (findings.length === 0) this.sources.delete(key);
    else this.sources.set(key, findings);
    for (const [file, part] of byFileOf(findings)) {
      let parts = this.parts.get(file);
      if (!parts) this.parts.set(file, (parts = new Map()));
      parts.set(key, part);
      this.touched.add(file);
    }
  }

  /**
   * Remakes the list of every file whose sources changed since the last call; returns the files
   * whose list is another one. `rank` orders a file's sources as a check from scratch reports them.
   */
  assemble(rank: (key: string) => number): Set<string> {
    const changed = new Set<string>();
    for (const file of this.touched) {
      const parts = this.parts.get(file);
      let list: Finding[] = [];
      if (parts) {
        const ordered = [...parts].sort(([a], [b]) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : rank(a) - rank(b)));
        for (const [, part] of ordered) for (const f of part) list.push(f);
        list.sort(compareFindings);
      }
      const before = this.byFile.get(file);
      if (before && before.length === list.length && before.every((f, i) => f === list[i])) continue;
      if (list.length === 0) {
        if (!before) continue;
        this.byFile.delete(file);
        list = [];
      } else this.byFile.set(file, list);
      changed.add(file);
    }
    this.touched.clear();
    return changed;
  }
}

function filesOf(findings: readonly Finding[]): Set<string> {
  const files = new Set<string>();
  for (const f of findings) files.add(f.file);
  return files;
}

function byFileOf(findings: readonly Finding[]): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = out.get(f.file);
    if (list) list.push(f);
    else out.set(f.file, [f]);
  }
  return out;
}

/** Whether two lists of findings say the same (a source re-run that found what it found before). */
function sameFindings(a: readonly Finding[], b: readonly Finding[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.file !== y.file || x.code !== y.code || x.range.start !== y.range.start || x.range.end !== y.range.end || x.message !== y.message) return false;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Which sources read which files and names: an edit of a file, or a change of a name's
 * declarations, invalidates exactly the sources listed under it. `wide` sources listed whole tables
 * (suggestions: the check asks each whether a name changed near what it asked).
 */
export class ReadIndex {
  private readonly byFile = new Map<string, Set<string>>();
  private readonly byName = new Map<string, Set<string>>();
  readonly wide = new Set<string>();

  add(key: string, files: Iterable<string>, names: Iterable<string>, wide: boolean): void {
    for (const f of files) addTo(this.byFile, f, key);
    for (const n of names) addTo(this.byName, n, key);
    if (wide) this.wide.add(key);
  }

  remove(key: string, files: Iterable<string>, names: Iterable<string>): void {
    for (const f of files) removeFrom(this.byFile, f, key);
    for (const n of names) removeFrom(this.byName, n, key);
    this.wide.delete(key);
  }

  readersOfFile(file: string): ReadonlySet<string> | undefined {
    return this.byFile.get(file);
  }

  readersOfName(name: string): ReadonlySet<string> | undefined {
    return this.byName.get(name);
  }
}

function addTo(map: Map<string, Set<string>>, at: string, key: string): void {
  let set = map.get(at);
  if (!set) map.set(at, (set = new Set()));
  set.add(key);
}

function removeFrom(map: Map<string, Set<string>>, at: string, key: string): void {
  const set = map.get(at);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) map.delete(at);
}
