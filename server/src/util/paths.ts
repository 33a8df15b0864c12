// Path rules shared by the runner's files maps and packages on disk.

/**
 * The first file or folder name that another one equals once letter case and Unicode form are
 * folded (`Docs/a.mthds` beside `docs/b.mthds` names two folders that are one on many systems).
 */
export function clashingName(names: readonly string[]): string | undefined {
  const seen = new Map<string, string>();
  for (const name of names) {
    for (let end = name.indexOf('/'); ; end = name.indexOf('/', end + 1)) {
      const part = end < 0 ? name : name.slice(0, end);
      const folded = part.normalize('NFC').toLowerCase();
      const first = seen.get(folded);
      if (first === undefined) seen.set(folded, part);
      else if (first !== part) return part;
      if (end < 0) break;
    }
  }
  return undefined;
}
