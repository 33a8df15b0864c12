// The resident memory of a process (Linux /proc): current (VmRSS) and peak (VmHWM), in MB.

import { readFileSync } from 'node:fs';

export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/**
 * The CPU time a process has used (Linux /proc, ms, at the kernel's clock tick): its main thread
 * (where messages are handled) and all its threads (V8's compiler and collector threads too).
 */
export function cpuOf(pid) {
  const ms = (file) => {
    // The fields after the command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  try {
    return { main: ms(`/proc/${pid}/task/${pid}/stat`), all: ms(`/proc/${pid}/stat`) };
  } catch {
    return { main: NaN, all: NaN };
  }
}
