// "Did you mean" suggestions: candidates ranked by edit distance, likeliest first.

import { distance } from 'fastest-levenshtein';

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
    const local = candidate.slice(candidate.lastIndexOf('.') + 1);
    const d = Math.min(distance(lower, candidate.toLowerCase()), distance(lower, local.toLowerCase()) + 0.5);
    const limit = Math.max(2, Math.floor(Math.max(name.length, local.length) / 3));
    const contains = local.length >= 4 && (lower.includes(local.toLowerCase()) || local.toLowerCase().includes(lower));
    if (d <= limit || contains) scored.push({ candidate, score: contains ? Math.min(d, limit) : d });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}
