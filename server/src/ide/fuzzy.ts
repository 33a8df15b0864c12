// Fuzzy matching for workspace symbols: the query's characters in order (case-insensitive), scored
// so that prefixes, word starts (`rd_inv` for `read_invoice`, `LI` for `LineItem`) and contiguous
// runs rank first.

/** The score of `target` for `query` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, target: string): number | undefined {
  if (query === '') return 0;
  const q = query.toLowerCase();
  const t = target.toLowerCase();
  let score = 0;
  let ti = 0;
  let run = 0;
  for (let qi = 0; qi < q.length; qi++) {
    const c = q[qi]!;
    let found = -1;
    // Prefer the next word start holding the character, else its next occurrence.
    for (let j = ti; j < t.length; j++) {
      if (t[j] === c && isWordStart(target, j)) {
        found = j;
        break;
      }
    }
    const next = t.indexOf(c, ti);
    if (next < 0) return undefined;
    if (found < 0 || (next === ti && run > 0)) found = next;
    if (found === ti && qi > 0) run++;
    else run = 0;
    score += 1 + run * 2 + (isWordStart(target, found) ? 3 : 0) + (found === 0 ? 5 : 0);
    ti = found + 1;
  }
  if (t === q) score += 20;
  else if (t.startsWith(q)) score += 10;
  // Shorter targets first among equals.
  return score - target.length * 0.01;
}

function isWordStart(s: string, i: number): boolean {
  if (i === 0) return true;
  const prev = s[i - 1]!;
  const c = s[i]!;
  return prev === '_' || prev === '.' || prev === '-' || (c >= 'A' && c <= 'Z' && !(prev >= 'A' && prev <= 'Z'));
}
