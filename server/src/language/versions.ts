// Package versions and dependency constraints (METHODS.toml `[dependencies]`): which installed
// versions satisfy a constraint, and Minimum Version Selection over several constraints.
// The constraint grammar is the manifest's (`1.0.0`, `^1.0`, `~1`, `>=1.2, <2`, `1.*`, `==`,
// `!=`), comma-compound; semver ranges understand every clause but `!=` and `==`, which are
// translated here.

import semver from 'semver';

interface Constraint {
  /** A semver range for the clauses it understands. */
  range: semver.Range;
  /** Versions the `!=` clauses exclude. */
  excluded: string[];
}

function parseConstraint(text: string): Constraint | undefined {
  const parts: string[] = [];
  const excluded: string[] = [];
  for (const raw of text.split(',')) {
    const clause = raw.trim().replace(/^(\^|~|>=|<=|>|<|==|!=|=)\s+/, '$1');
    if (clause === '') return undefined;
    if (clause.startsWith('!=')) {
      const v = semver.coerce(clause.slice(2), { includePrerelease: true });
      if (!v) return undefined;
      excluded.push(v.version);
    } else parts.push(clause.startsWith('==') ? clause.slice(1) : clause);
  }
  try {
    return { range: new semver.Range(parts.length > 0 ? parts.join(' ') : '*'), excluded };
  } catch {
    return undefined;
  }
}

/** Whether `version` satisfies every clause of `constraint` (false when either is malformed). */
export function satisfiesConstraint(version: string, constraint: string): boolean {
  const c = parseConstraint(constraint);
  const v = semver.valid(version);
  if (!c || !v) return false;
  return !c.excluded.includes(v) && c.range.test(v);
}

/**
 * Minimum Version Selection: the lowest of `versions` that satisfies every constraint, or
 * undefined when none does. Versions that are not semantic versions are ignored.
 */
export function selectMinimumVersion(versions: readonly string[], constraints: readonly string[]): string | undefined {
  const sorted = versions.filter((v) => semver.valid(v)).sort(semver.compare);
  return sorted.find((v) => constraints.every((c) => satisfiesConstraint(v, c)));
}

/** The highest of `versions` (semantic versions only). */
export function newestVersion(versions: readonly string[]): string | undefined {
  return versions.filter((v) => semver.valid(v)).sort(semver.rcompare)[0];
}
