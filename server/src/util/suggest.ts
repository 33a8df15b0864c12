// "Did you mean" suggestions: candidates ranked by edit distance, likeliest first. Rules call this
// only when they report a finding; the distance is bounded, so far candidates cost a length check.

import { distance } from 'fastest-levenshtein';

/**
 * The edit distance of `a` and `b` when it is at most `limit`, else `limit + 1`. Strings whose
 * lengths differ by more than the limit are that far apart at least: no distance is computed.
 */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  return Math.min(distance(a, b), limit + 1);
}

/**
 * Candidates close enough to `name` to be a plausible typo, likeliest first. Case differences
 * count as near-misses (a wrongly cased code is the commonest mistake).
 */
export function suggest(name: string, candidates: Iterable<string>, max = 5): string[] {
  const lower = name.toLowerCase();
  const scored: Array<{ candidate: string; score: number }> = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (candidate === name || seen.has(candidate)) continue;
    seen.add(candidate);
    const { local, localLower, lower: candidateLower } = formsOf(candidate);
    const limit = Math.max(2, Math.floor(Math.max(name.length, local.length) / 3));
    const contains = local.length >= 4 && (lower.includes(localLower) || localLower.includes(lower));
    // Both distances capped at limit + 1: the score is exact up to the limit, and above it only
    // "too far" matters (a containing candidate then scores the limit itself).
    const whole = local.length === candidate.length ? undefined : boundedDistance(lower, candidateLower, limit);
    const ofLocal = boundedDistance(lower, localLower, limit) + 0.5;
    const d = whole === undefined ? ofLocal - 0.5 : Math.min(whole, ofLocal);
    if (d <= limit || contains) scored.push({ candidate, score: contains ? Math.min(d, limit) : d });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}

// A candidate's local part and lower-case forms, made once: the same names of a large tree are
// candidates of every suggestion. Bounded: emptied when it holds too many.
const forms = new Map<string, { local: string; localLower: string; lower: string }>();
const MAX_FORMS = 200_000;

function formsOf(candidate: string): { local: string; localLower: string; lower: string } {
  let f = forms.get(candidate);
  if (!f) {
    if (forms.size >= MAX_FORMS) forms.clear();
    const local = candidate.slice(candidate.lastIndexOf('.') + 1);
    f = { local, localLower: local.toLowerCase(), lower: candidate.toLowerCase() };
    forms.set(candidate, f);
  }
  return f;
}
