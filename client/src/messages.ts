// The server tells the user the outcome of every runner command (window/showMessage). The status
// bar asks `mthds.runner.version` and `mthds.runner.models` in the background, and must not pop a
// notification each time: while such a probe is in flight, its messages are held back. A user's
// own command whose failure was held back is shown again by the command middleware.

export const MESSAGE_ERROR = 1;
export const MESSAGE_WARNING = 2;
export const MESSAGE_INFO = 3;

/** What the server says on success of the probe's commands (lsp/runner/commands.ts). */
const PROBE_SUCCESS = [/^Runner (\(built-in\) )?at \S+: protocol /, /^\d+ models?( of type \S+)?: /];

export class MessageGate {
  private quiet = 0;
  private readonly held = new Set<string>();

  /** Runs a background probe; messages it causes are not shown. */
  async quietly<T>(probe: () => Promise<T>): Promise<T> {
    this.quiet++;
    try {
      return await probe();
    } finally {
      this.quiet--;
    }
  }

  /** Whether to show a message now (false: held back, as it comes from a background probe). */
  admit(type: number, message: string): boolean {
    if (this.quiet === 0) return true;
    if (PROBE_SUCCESS.some((re) => re.test(message))) return false;
    if (type === MESSAGE_ERROR) {
      // Remembered so that a user command failing at the same moment still gets its message shown.
      this.held.add(message);
      if (this.held.size > 20) this.held.delete(this.held.values().next().value as string);
      return false;
    }
    return true;
  }

  /** True once when `message` was held back; the caller shows it. */
  release(message: string): boolean {
    return this.held.delete(message);
  }
}
