// The base protocol's rules the connection library leaves to the server, applied to the messages
// as they are read, before the connection queues them:
// - before `initialize`, a request is answered -32002 (ServerNotInitialized) and a notification
//   dropped (`exit` excepted); after `shutdown`, a request is answered InvalidRequest and a
//   notification other than `exit` dropped;
// - a request whose `params` is present and not an object (null, a number, a list) is answered
//   InvalidParams: the library would hand `null` to the handlers, which fail with a crash message;
// - a `$/cancelRequest` of a request not waiting for its answer is dropped (a flood of them would
//   otherwise hold the requests behind it for a turn of the message loop each);
// - a request reusing the id of a request not answered yet gets its own answer: vscode-jsonrpc
//   queues requests by id, so the later one would replace the earlier unseen. The later one goes
//   on under an id of its own and its answer is written back under the id the client gave.

import { ErrorCodes, type Message, type MessageReader, type MessageWriter, type RequestMessage, type ResponseMessage } from 'vscode-languageserver';

type Id = number | string;

/** What becomes of a message read. */
export type Admission = { pass: Message } | { answer: ResponseMessage } | { drop: true };

/** A request with an id the client can be answered under. */
type IdRequest = RequestMessage & { id: Id };
export const methodOf = (m: Message): string | undefined => {
  const method: unknown = (m as { method?: unknown }).method;
  return typeof method === 'string' ? method : undefined;
};
export const isRequest = (m: Message): m is IdRequest => {
  const id: unknown = (m as { id?: unknown }).id;
  return methodOf(m) !== undefined && (typeof id === 'number' || typeof id === 'string');
};
const refuse = (id: Id, code: number, message: string): { answer: ResponseMessage } => ({ answer: { jsonrpc: '2.0', id, error: { code, message } } });

export class ProtocolGuard {
  private state: 'new' | 'initialized' | 'shut down' = 'new';
  /** Ids of requests passed on and not answered yet, each with how many pass under it. */
  private readonly pending = new Map<Id, number>();
  /** The client's id of each request passed on under an id of its own. */
  private readonly renamed = new Map<string, Id>();
  private renames = 0;

  /** Whether `shutdown` was asked (the exit status of `exit` and of a closed input). */
  get shutDown(): boolean {
    return this.state === 'shut down';
  }

  /** Decides on a message read from the client. */
  admit(message: Message): Admission {
    const method = methodOf(message);
    if (method !== undefined && !isRequest(message)) {
      // A cancel of no request waiting for its answer does nothing: dropped here, a flood of them
      // does not hold the requests behind it for one turn of the message loop each.
      if (method === '$/cancelRequest' && !this.pending.has((message as { params?: { id?: Id } }).params?.id ?? '')) return { drop: true };
      if (method === 'exit' || this.state === 'initialized') return { pass: message };
      return { drop: true };
    }
    if (!isRequest(message)) return { pass: message };
    const { id } = message;
    if (this.state === 'shut down') return refuse(id, ErrorCodes.InvalidRequest, `${method}: the server is shut down; only exit is accepted`);
    if (method === 'initialize') {
      if (this.state !== 'new') return refuse(id, ErrorCodes.InvalidRequest, 'initialize: the server is already initialized');
    } else if (this.state === 'new') {
      return refuse(id, ErrorCodes.ServerNotInitialized, `${method}: the server is not initialized (initialize comes first)`);
    }
    const params: unknown = message.params;
    if (method !== 'shutdown' && params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
      return refuse(id, ErrorCodes.InvalidParams, `${method}: params must be an object, got ${params === null ? 'null' : Array.isArray(params) ? 'a list' : typeof params}`);
    }
    if (method === 'initialize') this.state = 'initialized';
    if (method === 'shutdown') this.state = 'shut down';
    if (!this.pending.has(id)) {
      this.pending.set(id, 1);
      return { pass: message };
    }
    this.pending.set(id, this.pending.get(id)! + 1);
    let own: string;
    do own = `mthds:reused-id:${++this.renames}`;
    while (this.pending.has(own));
    this.renamed.set(own, id);
    return { pass: { ...message, id: own } as RequestMessage };
  }

  /** The answer as the client must see it: its own id back, and the id free again once answered. */
  answered(message: Message): Message {
    const { id } = message as { id?: Id | null };
    if (!('result' in message || 'error' in message) || id === undefined || id === null) return message;
    const original = typeof id === 'string' ? this.renamed.get(id) : undefined;
    if (original !== undefined) this.renamed.delete(id as string);
    const key = original ?? id;
    const left = (this.pending.get(key) ?? 1) - 1;
    if (left > 0) this.pending.set(key, left);
    else this.pending.delete(key);
    if (original === undefined) return message;
    const restored: ResponseMessage = { ...(message as ResponseMessage), id: original };
    return restored;
  }
}

/**
 * The transport with the guard in between: what the guard answers is written at once, what it
 * drops never reaches the connection, and every answer the connection writes goes through it.
 */
export function guardTransport(reader: MessageReader, writer: MessageWriter, guard: ProtocolGuard): { reader: MessageReader; writer: MessageWriter } {
  const guardedWriter: MessageWriter = {
    onError: writer.onError,
    onClose: writer.onClose,
    write: (message) => writer.write(guard.answered(message)),
    end: () => writer.end(),
    dispose: () => writer.dispose(),
  };
  const guardedReader: MessageReader = {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) =>
      reader.listen((message) => {
        const admission = guard.admit(message);
        if ('pass' in admission) callback(admission.pass);
        else if ('answer' in admission) void writer.write(admission.answer);
      }),
    dispose: () => reader.dispose(),
  };
  return { reader: guardedReader, writer: guardedWriter };
}
