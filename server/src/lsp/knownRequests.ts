// The ids of the latest requests the client sent, as the stdin worker (stdinWorker.ts) reads them:
// a `$/cancelRequest` of an id the client never sent as a request cancels nothing, so the worker
// drops it before it costs the main thread anything (a flood of 200,000 of them came to seconds).
// A cancel of an id older than the ones kept goes on to the protocol guard, which knows which
// requests still wait for their answer (protocolGuard.ts).

type Id = number | string;

/** How many of the latest request ids are kept. */
export const KEPT_REQUEST_IDS = 65_536;

export class KnownRequests {
  private readonly ids = new Set<Id>();
  private readonly order: Id[] = [];
  private oldest = 0;
  /** Whether ids were forgotten: a cancel of an unknown id may then be of a request still waiting. */
  private forgot = false;
  /** The largest numeric id seen: a cancel of a larger one is of no request sent (clients count up). */
  private maxNumeric = -Infinity;

  constructor(private readonly keep: number = KEPT_REQUEST_IDS) {}

  /**
   * Whether a message read is worth passing on: a cancel of an id never seen as a request is not
   * (the requests' ids are noted as they pass).
   */
  passes(message: unknown): boolean {
    if (typeof message !== 'object' || message === null) return true;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof method !== 'string') return true;
    if (typeof id === 'number' || typeof id === 'string') {
      this.note(id);
      return true;
    }
    if (method !== '$/cancelRequest') return true;
    const cancelled: unknown = typeof params === 'object' && params !== null ? (params as { id?: unknown }).id : undefined;
    if (typeof cancelled !== 'number' && typeof cancelled !== 'string') return true;
    if (this.ids.has(cancelled)) return true;
    if (!this.forgot) return false;
    return typeof cancelled !== 'number' || cancelled <= this.maxNumeric;
  }

  private note(id: Id): void {
    if (typeof id === 'number' && id > this.maxNumeric) this.maxNumeric = id;
    if (this.ids.has(id)) return;
    this.ids.add(id);
    this.order.push(id);
    if (this.order.length - this.oldest > this.keep) {
      this.ids.delete(this.order[this.oldest]!);
      this.oldest += 1;
      this.forgot = true;
      if (this.oldest >= this.keep) {
        this.order.splice(0, this.oldest);
        this.oldest = 0;
      }
    }
  }
}
