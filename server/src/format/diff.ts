// A line diff (Myers, O(ND)), to turn a formatted document into small edits: the editor keeps its
// cursor and marks on untouched lines, and range formatting keeps only the changes in the range.

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
  // Common head and tail first: most formatting touches a few lines.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length === 0 && y.length === 0) return [];
  const n = x.length;
  const m = y.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max; d++) {
    if (d > maxCost) return undefined;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[offset + k] = i;
      if (i >= n && j >= m) {
        found = d;
        break;
      }
    }
    if (found >= 0) break;
  }
  // Walk back: collect, per step, whether a line was deleted or inserted.
  const ops: Array<{ kind: 'del' | 'ins'; i: number; j: number }> = [];
  let i = n;
  let j = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d]!;
    const k = i - j;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevI = vd[offset + prevK]!;
    const prevJ = prevI - prevK;
    while (i > prevI && j > prevJ) {
      i--;
      j--;
    }
    if (prevK === k + 1) ops.push({ kind: 'ins', i: prevI, j: prevJ });
    else ops.push({ kind: 'del', i: prevI, j: prevJ });
    i = prevI;
    j = prevJ;
  }
  ops.reverse();
  // Group adjacent operations into hunks.
  const hunks: LineHunk[] = [];
  for (const op of ops) {
    const last = hunks[hunks.length - 1];
    const at = op.i + head;
    if (op.kind === 'del') {
      if (last && last.end === at) last.end = at + 1;
      else hunks.push({ start: at, end: at + 1, lines: [] });
    } else {
      const line = y[op.j]!;
      if (last && last.end === at) last.lines.push(line);
      else hunks.push({ start: at, end: at, lines: [line] });
    }
  }
  return hunks;
}
