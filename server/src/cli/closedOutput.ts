// A command whose output is closed early (`mthds check | head -1`: the reader exits) stops at
// once and quietly. Node ignores SIGPIPE, so a write to a closed pipe fails with EPIPE as an
// 'error' event of the stream, which is unhandled (a stack trace) unless it is listened to here.

/** The exit status of a command whose output was closed: 128 + SIGPIPE, as a shell reports it. */
export const CLOSED_OUTPUT_STATUS = 141;

interface OutputStream {
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

interface ChildProcessLike {
  kill(signal: NodeJS.Signals): unknown;
}

/**
 * Ends the process when stdout or stderr can no longer be written. EPIPE (and a write after it)
 * means the reader is gone: there is nobody to tell, so nothing is written. Any other fault of an
 * output stream ends the process too, with the same status (the output is lost either way).
 */
export function stopQuietlyWhenOutputCloses(streams: readonly OutputStream[], exit: (status: number) => void): void {
  for (const stream of streams) stream.on('error', () => exit(CLOSED_OUTPUT_STATUS));
}

/**
 * Exits, killing first the worker processes this one started (`mthds serve --workers N`). A
 * worker still starting when its primary is gone fails its first message to it with EPIPE inside
 * Node's own start-up, before any of our code can listen, and prints a stack trace to the output
 * the primary shares with it (seen with the output closed while the workers started).
 */
export function exitWithWorkers(status: number, workers: Iterable<ChildProcessLike>, exit: (status: number) => void): void {
  for (const worker of workers) {
    try {
      worker.kill('SIGKILL');
    } catch {
      // Gone already.
    }
  }
  exit(status);
}
