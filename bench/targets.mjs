// A benchmark's figures against the targets its issue set, printed beside them on every run: a
// target that a later change breaks shows in the next run of the benchmark, not only when someone
// compares it with the README's figures by hand.

/**
 * One line: `targets (what): <name> <value> (≤ <bound>) met | NOT met, ...`. Each entry is
 * `[name, value, bound, unit]`; a value that could not be measured (NaN) is NOT met.
 */
export function targetLine(what, entries) {
  const parts = entries.map(([name, value, bound, unit = 'ms']) => {
    const met = Number.isFinite(value) && value <= bound;
    const shown = Number.isFinite(value) ? (Number.isInteger(bound) && unit !== 'times' ? value.toFixed(1) : value.toFixed(2)) : 'n/a';
    return `${name} ${shown} ${unit} (≤ ${bound}) ${met ? 'met' : 'NOT met'}`;
  });
  const all = entries.every(([, value, bound]) => Number.isFinite(value) && value <= bound);
  return `targets (${what}): ${parts.join(', ')}${all ? '' : ' — NOT ALL MET'}`;
}
