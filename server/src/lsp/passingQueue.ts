// The messages read and not yet handed to the connection. vscode-jsonrpc handles one queued
// message per turn of the event loop, so a request read behind a flood of 10,000 `didOpen` waited
// for all of them (and for the checks they scheduled meanwhile): seconds. Here they wait in this
// queue, handed over one per turn, and a request that answers about its own document only (a
// hover, a completion, the outline) goes ahead of the document notifications queued before it
// that are about other documents. The order the protocol guarantees still holds: a request sees
// every earlier notification about its document, and every earlier request, workspace
// notification (configuration, folders, watched files) and cancellation before it.

import type { Message, MessageReader } from 'vscode-languageserver';
import { isRequest, methodOf } from './protocolGuard.js';

/** Notifications about one document (`params.textDocument.uri`) that a request about another may pass. */
const DOCUMENT_NOTIFICATIONS = new Set(['textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose', 'textDocument/didSave', 'textDocument/willSave']);

/** Requests whose answer is about their own document only: what other documents' pending edits change is not theirs. */
const SELF_CONTAINED_REQUESTS = new Set([
  'textDocument/hover',
  'textDocument/completion',
  'textDocument/signatureHelp',
  'textDocument/documentHighlight',
  'textDocument/documentSymbol',
  'textDocument/foldingRange',
  'textDocument/selectionRange',
  'textDocument/semanticTokens/full',
  'textDocument/semanticTokens/full/delta',
  'textDocument/semanticTokens/range',
  'textDocument/inlayHint',
  'textDocument/codeLens',
  'textDocument/documentLink',
]);

/** The longest stretch of queued notifications a request looks back over (a bound on its cost). */
const MAX_PASSED = 100_000;

/** The document a message is about (`params.textDocument.uri`), if any. */
function documentOf(message: Message): string | undefined {
  const params: unknown = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const doc: unknown = (params as { textDocument?: unknown }).textDocument;
  if (typeof doc !== 'object' || doc === null) return undefined;
  const uri: unknown = (doc as { uri?: unknown }).uri;
  return typeof uri === 'string' ? uri : undefined;
}


/** A request that may pass notifications about other documents: its document's URI. */
function passingDocument(message: Message): string | undefined {
  const method = methodOf(message);
  return method !== undefined && SELF_CONTAINED_REQUESTS.has(method) && isRequest(message) ? documentOf(message) : undefined;
}

/** A notification a request about another document may pass: its document's URI. */
function passableDocument(message: Message): string | undefined {
  const method = methodOf(message);
  return method !== undefined && DOCUMENT_NOTIFICATIONS.has(method) && !isRequest(message) ? documentOf(message) : undefined;
}

export class PassingQueue {
  private items: Message[] = [];
  private head = 0;
  private scheduled = false;

  /**
   * `deliver` hands a message to the connection; `later` runs a function in a later turn of the
   * event loop (setImmediate: after the connection's own turn).
   */
  constructor(
    private readonly deliver: (message: Message) => void,
    private readonly later: (fn: () => void) => void = (fn) => void setImmediate(fn),
  ) {}

  /** How many messages wait. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Queues a message read (an empty queue hands it over at once, as the connection would take it). */
  push(message: Message): void {
    if (this.size === 0 && !this.scheduled) {
      this.deliver(message);
      this.schedule();
      return;
    }
    const uri = passingDocument(message);
    let at = this.items.length;
    if (uri !== undefined) {
      const floor = Math.max(this.head, this.items.length - MAX_PASSED);
      while (at > floor) {
        const passed = passableDocument(this.items[at - 1]!);
        if (passed === undefined || passed === uri) break;
        at -= 1;
      }
    }
    if (at === this.items.length) this.items.push(message);
    else this.items.splice(at, 0, message);
    this.schedule();
  }

  /** The queue's order now (tests). */
  pending(): Message[] {
    return this.items.slice(this.head);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => this.drain());
  }

  /** One message a turn, the pace of the connection's own queue: a request read meanwhile can still pass the rest. */
  private drain(): void {
    this.scheduled = false;
    if (this.size === 0) return;
    const message = this.items[this.head]!;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= 4096 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.deliver(message);
    this.schedule();
  }
}

/** The reader with the queue between it and the connection. */
export function passingReader(reader: MessageReader): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback) => {
      const queue = new PassingQueue(callback);
      return reader.listen((message) => queue.push(message));
    },
    dispose: () => reader.dispose(),
  };
}
