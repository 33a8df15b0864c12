// A benchmark's figures against the targets its issue set, printed beside them on every run: a
// target that a later change breaks shows in the next run of the benchmark, not only when someone
// compares it with the README's figures by hand.

/**
 * One line: `targets (what): <name> <value> (≤ <bound>) met | NOT met, ...`. Each entry is
 * `[name, value, bound, unit, sense]`; sense is '≤' (the default) or '≥' for a floor (a rate). A
 * value that could not be measured (NaN) is NOT met.
 */
export function targetLine(what, entries) {
  const parts = entries.map((entry) => {
    const [name, value, bound, unit = 'ms', sense = '≤'] = entry;
    const shown = Number.isInteger(value) ? String(value) : Number.isFinite(value) ? (Number.isInteger(bound) && unit !== 'times' ? value.toFixed(1) : value.toFixed(2)) : 'n/a';
    return `${name} ${shown}${unit ? ` ${unit}` : ''} (${sense} ${bound}) ${isMet(entry) ? 'met' : 'NOT met'}`;
  });
  return `targets (${what}): ${parts.join(', ')}${targetsMet(entries) ? '' : ' — NOT ALL MET'}`;
}

/** Whether one entry of `targetLine` is met (NaN never is). */
function isMet([, value, bound, , sense = '≤']) {
  return Number.isFinite(value) && (sense === '≥' ? value >= bound : value <= bound);
}

/** Whether every entry is met: the verdict a benchmark acts on is the one its line prints. */
export function targetsMet(entries) {
  return entries.every(isMet);
}
