// A line diff, to turn a formatted document into small edits: the editor keeps its cursor and
// marks on untouched lines, and range formatting keeps only the changes in the range. Myers' O(ND)
// diff in its linear-space form (the middle snake, "An O(ND) Difference Algorithm", section 4b, as
// diff-match-patch's bisect writes it): memory is linear in the number of lines whatever the
// distance, and the search gives up past a cost bound (the caller then replaces the whole text).

export interface LineHunk {
  /** Lines [start, end) of the original are replaced by `lines` of the new text. */
  start: number;
  end: number;
  lines: string[];
}

/** Splits after each `\n` (line breaks stay with their line, so joining gives the text back). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    out.push(text.slice(at, nl + 1));
    at = nl + 1;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The hunks turning `a` into `b`; undefined when they differ too much to be worth diffing. */
export function diffLines(a: readonly string[], b: readonly string[], maxCost = 4000): LineHunk[] | undefined {
  // Lines as numbers: equal lines get one number, so comparing is one integer test.
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const x = Int32Array.from(a, idOf);
  const y = Int32Array.from(b, idOf);
  const hunks: LineHunk[] = [];
  /** Lines [from, to) of `a` are replaced by lines [bFrom, bTo) of `b`; called in document order. */
  const emit = (from: number, to: number, bFrom: number, bTo: number): void => {
    let hunk = hunks[hunks.length - 1];
    if (hunk && hunk.end === from) hunk.end = to;
    else hunks.push((hunk = { start: from, end: to, lines: [] }));
    for (let j = bFrom; j < bTo; j++) hunk.lines.push(b[j]!);
  };
  // Only the first split searches with the bound: the parts of a split cost less than the whole.
  let budget = Math.ceil(maxCost / 2) + 1;
  const solve = (aLo: number, aHi: number, bLo: number, bHi: number): boolean => {
    // Common head and tail first: most formatting touches a few lines.
    while (aLo < aHi && bLo < bHi && x[aLo] === y[bLo]) {
      aLo++;
      bLo++;
    }
    while (aLo < aHi && bLo < bHi && x[aHi - 1] === y[bHi - 1]) {
      aHi--;
      bHi--;
    }
    if (aLo === aHi || bLo === bHi) {
      if (aLo < aHi || bLo < bHi) emit(aLo, aHi, bLo, bHi);
      return true;
    }
    const split = middleSnake(x, aLo, aHi, y, bLo, bHi, budget);
    budget = Number.MAX_SAFE_INTEGER;
    if (split === 'over') return false;
    if (split === 'none') {
      emit(aLo, aHi, bLo, bHi);
      return true;
    }
    return solve(aLo, split.x, bLo, split.y) && solve(split.x, aHi, split.y, bHi);
  };
  return solve(0, x.length, 0, y.length) ? hunks : undefined;
}

/**
 * Where a shortest edit path of x[aLo, aHi) into y[bLo, bHi) crosses its middle (both ends differ):
 * the forward and the reverse searches run until their furthest paths overlap. 'none' when no
 * line is shared; 'over' when more than `budget` steps each way would be needed.
 */
function middleSnake(x: Int32Array, aLo: number, aHi: number, y: Int32Array, bLo: number, bHi: number, budget: number): { x: number; y: number } | 'none' | 'over' {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  // Furthest x reached on each diagonal, forward from the start and backward from the end.
  const forward = new Int32Array(size).fill(-1);
  const backward = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  // Diagonals that ran off the grid are not searched again.
  let fStart = 0;
  let fEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  for (let d = 0; d < maxD; d++) {
    if (d > budget) return 'over';
    for (let k = -d + fStart; k <= d - fEnd; k += 2) {
      const i = offset + k;
      let px = k === -d || (k !== d && forward[i - 1]! < forward[i + 1]!) ? forward[i + 1]! : forward[i - 1]! + 1;
      let py = px - k;
      while (px < n && py < m && x[aLo + px] === y[bLo + py]) {
        px++;
        py++;
      }
      forward[i] = px;
      if (px > n) fEnd += 2;
      else if (py > m) fStart += 2;
      else if (odd) {
        const j = offset + delta - k;
        if (j >= 0 && j < size && backward[j] !== -1 && px >= n - backward[j]!) return { x: aLo + px, y: bLo + py };
      }
    }
    for (let k = -d + bStart; k <= d - bEnd; k += 2) {
      const i = offset + k;
      let px = k === -d || (k !== d && backward[i - 1]! < backward[i + 1]!) ? backward[i + 1]! : backward[i - 1]! + 1;
      let py = px - k;
      while (px < n && py < m && x[aHi - 1 - px] === y[bHi - 1 - py]) {
        px++;
        py++;
      }
      backward[i] = px;
      if (px > n) bEnd += 2;
      else if (py > m) bStart += 2;
      else if (!odd) {
        const j = offset + delta - k;
        if (j >= 0 && j < size && forward[j] !== -1) {
          const fx = forward[j]!;
          if (fx >= n - px) return { x: aLo + fx, y: bLo + fx - (j - offset) };
        }
      }
    }
  }
  return 'none';
}
