// The outline of a JSON-RPC message read from its bytes as they arrive, without decoding it: its
// method, its id, its `params.textDocument.uri` (passingRules.ts reads them). The stdin thread hands
// a large message to a thread of its own for decoding (largeBodyWorker.ts) and decides from this
// outline whether a request read behind it may be handed over first. The bytes are scanned only
// for the structure: strings are skipped byte by byte to their closing quote, and kept (then
// decoded) only when they are a key or one of the three values wanted. A later duplicate key
// replaces an earlier one, as JSON.parse does. Bytes that are not JSON give an outline of nothing,
// which passes nothing and lets nothing pass.

import type { MessageOutline } from './passingRules.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Keys and kept values longer than this are not the ones wanted: they are skipped, not kept. */
const MAX_KEPT_BYTES = 16 * 1024;

type Wanted = 'method' | 'id' | 'uri';

interface Level {
  object: boolean;
  /** The key of the value being read (objects). */
  key: string | undefined;
  /** Whether the next string of this object is a key. */
  expectKey: boolean;
}

export class JsonOutline {
  private readonly levels: Level[] = [];
  private broken = false;
  private started = false;
  private inString = false;
  private escaped = false;
  /** The string being read: a key, a wanted value, or neither (skipped). */
  private keeping: 'key' | Wanted | undefined;
  private kept: number[] = [];
  private keptTooLong = false;
  /** A literal (number, true, false, null) being read as the id. */
  private idLiteral: string | undefined;
  private method: string | undefined;
  private id: number | string | undefined;
  private uri: string | undefined;

  /** Reads the next bytes of the message. */
  push(bytes: Uint8Array): void {
    const n = bytes.length;
    let i = 0;
    while (i < n && !this.broken) {
      if (this.inString) {
        i = this.stringPart(bytes, i);
        continue;
      }
      const c = bytes[i]!;
      i += 1;
      if (this.idLiteral !== undefined) {
        if (isLiteralByte(c)) {
          this.idLiteral += String.fromCharCode(c);
          continue;
        }
        this.endIdLiteral();
      }
      switch (c) {
        case 0x20: case 0x09: case 0x0a: case 0x0d: break;
        case 0x7b: case 0x5b: // { [
          this.valueStarts();
          this.levels.push({ object: c === 0x7b, key: undefined, expectKey: c === 0x7b });
          this.started = true;
          break;
        case 0x7d: case 0x5d: // } ]
          if (this.levels.pop() === undefined) this.broken = true;
          break;
        case 0x3a: { // :
          const level = this.levels.at(-1);
          if (level?.object) level.expectKey = false;
          break;
        }
        case 0x2c: { // ,
          const level = this.levels.at(-1);
          if (level?.object) [level.expectKey, level.key] = [true, undefined];
          break;
        }
        case QUOTE: {
          const level = this.levels.at(-1);
          if (level === undefined) {
            this.broken = true;
            break;
          }
          this.keeping = level.object && level.expectKey ? 'key' : this.valueStarts();
          this.inString = true;
          this.kept = [];
          this.keptTooLong = false;
          break;
        }
        default:
          if (!isLiteralByte(c) || this.levels.length === 0) {
            this.broken = true;
            break;
          }
          if (this.valueStarts() === 'id') this.idLiteral = String.fromCharCode(c);
      }
    }
  }

  /** The outline, once every byte is read. */
  outline(): MessageOutline {
    if (this.idLiteral !== undefined) this.endIdLiteral();
    if (this.broken || !this.started || this.inString || this.levels.length > 0) return { method: undefined, request: false, uri: undefined };
    const request = this.method !== undefined && this.id !== undefined;
    return { method: this.method, request, ...(request ? { id: this.id } : {}), uri: this.uri };
  }

  /** Reads a string's bytes from `i`; the index after them. */
  private stringPart(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    const keep = this.keeping !== undefined;
    while (i < n) {
      const c = bytes[i]!;
      if (this.escaped) this.escaped = false;
      else if (c === BACKSLASH) this.escaped = true;
      else if (c === QUOTE) {
        this.inString = false;
        this.endString();
        return i + 1;
      }
      if (keep) {
        if (this.kept.length < MAX_KEPT_BYTES) this.kept.push(c);
        else this.keptTooLong = true;
      }
      i += 1;
    }
    return i;
  }

  private endString(): void {
    const what = this.keeping;
    this.keeping = undefined;
    if (what === undefined) return;
    const text = this.keptTooLong ? undefined : decodeJsonString(this.kept);
    this.kept = [];
    if (what === 'key') {
      const level = this.levels.at(-1)!;
      level.key = text ?? '';
      return;
    }
    if (what === 'method') this.method = text;
    else if (what === 'id') this.id = text;
    else this.uri = text;
  }

  /**
   * A value starts at the current place: what it replaces is forgotten (a later duplicate key wins),
   * and whether it is one of the values wanted.
   */
  private valueStarts(): Wanted | undefined {
    const [top, params, doc] = this.levels;
    const depth = this.levels.length;
    if (depth === 0) return undefined;
    if (depth === 1 && top!.object) {
      if (top!.key === 'method') this.method = undefined;
      else if (top!.key === 'id') this.id = undefined;
      else if (top!.key === 'params') this.uri = undefined;
      return top!.key === 'method' || top!.key === 'id' ? top!.key : undefined;
    }
    if (top!.key !== 'params' || !params!.object) return undefined;
    if (depth === 2 && params!.key === 'textDocument') this.uri = undefined;
    if (depth === 3 && params!.key === 'textDocument' && doc!.object && doc!.key === 'uri') {
      this.uri = undefined;
      return 'uri';
    }
    return undefined;
  }

  private endIdLiteral(): void {
    const literal = this.idLiteral!;
    this.idLiteral = undefined;
    const value = Number(literal);
    // `null`, `true`, `false` are no request id; a number is.
    this.id = /^-?\d/.test(literal) && Number.isFinite(value) ? value : undefined;
  }
}

/** Whether a byte may belong to a literal: a number, true, false, null. */
function isLiteralByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45;
}

/** The text of a JSON string's content bytes (its escapes read), undefined if it is none. */
function decodeJsonString(bytes: number[]): string | undefined {
  try {
    const value: unknown = JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
