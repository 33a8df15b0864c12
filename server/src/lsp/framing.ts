// The base protocol's framing of a stream transport (stdio): headers `Name: value` ending in an
// empty line, `Content-Length` required, then that many bytes of content. The reader cuts the
// stream into message bodies; on a broken frame it names the fault and its byte and reads no
// further: vscode-jsonrpc's own reader would report an error and go on reading from a place that
// is no message boundary, so the server would stay alive and never answer again. The server exits
// instead (lsp/main.ts) and the client starts it again. A body is copied once, when its last byte
// arrives (a chunk holding a whole body lends it without a copy), so a 50 MB message costs one
// copy of 50 MB, not one per chunk; `TextFrameReader` decodes the UTF-8 of a body spread over
// chunks as they arrive instead, so that little is left to do once its last byte is read, and
// `SplitFrameReader` does so for small bodies only: a large one is kept as bytes, to be decoded
// on another thread while the messages behind it are read.

import { StringDecoder } from 'node:string_decoder';
import { JsonOutline } from './jsonOutline.js';
import type { MessageOutline } from './passingRules.js';

/** The longest header part accepted (bytes): real headers are two short lines. */
export const MAX_HEADER_BYTES = 8192;
/** The largest message accepted (bytes of content): far above any method document. */
export const MAX_CONTENT_BYTES = 512 * 1024 * 1024;

const CR = 13;
const LF = 10;
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');

export class FrameReader<Body = Uint8Array> {
  /** Bytes still to read of the current message's content (-1: reading a header). */
  private remaining = -1;
  /** The parts of the current body read so far. */
  protected parts: Uint8Array[] = [];
  /** The header bytes read so far. */
  private header: number[] = [];
  /** Bytes of the stream before the current chunk (for the fault's position). */
  private offset = 0;
  private fault: string | undefined;

  /**
   * Reads the next chunk of the stream, handing each complete body to `onBody` in order; returns
   * the fault's description once the framing breaks (and for every chunk after), else undefined.
   */
  push(chunk: Uint8Array, onBody: (body: Body) => void = () => undefined): string | undefined {
    if (this.fault !== undefined) return this.fault;
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining >= 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        if (take > 0) this.bodyPart(chunk.subarray(i, i + take), take === this.remaining);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.endBody(onBody);
        continue;
      }
      // A header whole within the chunk is found at once; one cut by the chunk's end byte by byte.
      if (this.header.length === 0) {
        const end = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).indexOf(HEADER_END, i);
        if (end >= 0 && end - i <= MAX_HEADER_BYTES) {
          const parsed = parseHeader(chunk.subarray(i, end));
          if (typeof parsed === 'string') return this.broken(`${parsed} (the header at byte ${this.offset + i})`);
          i = end + 4;
          this.remaining = parsed;
          this.startBody(parsed);
          if (parsed === 0) this.endBody(onBody);
          continue;
        }
      }
      this.header.push(chunk[i]!);
      i += 1;
      const n = this.header.length;
      if (n >= 4 && this.header[n - 4] === CR && this.header[n - 3] === LF && this.header[n - 2] === CR && this.header[n - 1] === LF) {
        const start = this.offset + i - n;
        const parsed = parseHeader(this.header.slice(0, n - 4));
        this.header = [];
        if (typeof parsed === 'string') return this.broken(`${parsed} (the header at byte ${start})`);
        this.remaining = parsed;
        this.startBody(parsed);
        if (parsed === 0) this.endBody(onBody);
      } else if (n > MAX_HEADER_BYTES) {
        return this.broken(`a header longer than ${MAX_HEADER_BYTES} bytes without its end (the header at byte ${this.offset + i - n})`);
      }
    }
    this.offset += chunk.length;
    return undefined;
  }

  /** A body of `length` bytes starts. */
  protected startBody(length: number): void {
    void length;
  }

  /** Keeps a part of the current body (`last`: the part that ends it). */
  protected bodyPart(part: Uint8Array, last: boolean): void {
    void last;
    this.parts.push(part);
  }

  /** The current body, whole, and the reader ready for the next one. */
  protected takeBody(): Body {
    const parts = this.parts;
    this.parts = [];
    return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)) as Body;
  }

  private endBody(onBody: (body: Body) => void): void {
    this.remaining = -1;
    onBody(this.takeBody());
  }

  private broken(fault: string): string {
    this.fault = fault;
    this.parts = [];
    return fault;
  }
}

/** The text of a body cut by chunks, decoded chunk by chunk as it arrives (a body within one chunk in one go when it ends). */
class BodyText {
  private decoder = new StringDecoder('utf8');
  private text = '';
  private whole: Uint8Array | undefined;
  private begun = false;

  add(part: Uint8Array, last: boolean): void {
    if (last && !this.begun) this.whole = part;
    else {
      this.begun = true;
      this.text += this.decoder.write(part);
    }
  }

  take(): string {
    const whole = this.whole;
    this.whole = undefined;
    if (whole !== undefined) return (Buffer.isBuffer(whole) ? whole : Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength)).toString('utf8');
    const text = this.text + this.decoder.end();
    this.text = '';
    this.begun = false;
    return text;
  }
}

/** A frame reader whose bodies are text. */
export class TextFrameReader extends FrameReader<string> {
  private readonly text = new BodyText();

  protected override bodyPart(part: Uint8Array, last: boolean): void {
    this.text.add(part, last);
  }

  protected override takeBody(): string {
    return this.text.take();
  }
}

/** A body of the stdin reader: text, or a large body's bytes (in a buffer of their own) and its outline. */
export type FrameBody = { text: string } | { bytes: Uint8Array; outline: MessageOutline };

/** Bodies from this size on are large: framed as bytes and decoded elsewhere (stdinWorker.ts). */
export const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * A frame reader whose small bodies are text and whose large ones are bytes with their outline
 * (jsonOutline.ts), both gathered as the chunks arrive: a large body is copied chunk by chunk into
 * its own buffer, which can then be handed to another thread without a copy.
 */
export class SplitFrameReader extends FrameReader<FrameBody> {
  private readonly text = new BodyText();
  private large: { bytes: Buffer; filled: number; outline: JsonOutline } | undefined;

  constructor(private readonly largeBytes: number = LARGE_BODY_BYTES) {
    super();
  }

  protected override startBody(length: number): void {
    if (length >= this.largeBytes) this.large = { bytes: Buffer.allocUnsafeSlow(length), filled: 0, outline: new JsonOutline() };
  }

  protected override bodyPart(part: Uint8Array, last: boolean): void {
    const large = this.large;
    if (large === undefined) return this.text.add(part, last);
    large.bytes.set(part, large.filled);
    large.filled += part.length;
    large.outline.push(part);
  }

  protected override takeBody(): FrameBody {
    const large = this.large;
    if (large === undefined) return { text: this.text.take() };
    this.large = undefined;
    return { bytes: large.bytes, outline: large.outline.outline() };
  }
}

/** The content length of a header part (its lines without the empty line), or what is wrong with it. */
export function parseHeader(bytes: number[] | Uint8Array): number | string {
  const common = commonHeader(bytes);
  if (common !== undefined) return common;
  const text = Buffer.from(bytes).toString('latin1');
  let length: number | undefined;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line that is not "Name: value": ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,12}$/.test(value)) return `a Content-Length that is not a number of bytes: ${JSON.stringify(value.slice(0, 80))}`;
    length = Number(value);
    if (length > MAX_CONTENT_BYTES) return `a Content-Length of ${length} bytes, more than the ${MAX_CONTENT_BYTES} accepted`;
  }
  if (length === undefined) return 'a header without Content-Length';
  return length;
}

const COMMON = 'Content-Length: ';

/** The length of the header every client writes, `Content-Length: N` alone, read without decoding it; undefined for any other. */
function commonHeader(bytes: number[] | Uint8Array): number | undefined {
  const n = bytes.length;
  if (n <= COMMON.length || n > COMMON.length + 9) return undefined;
  for (let i = 0; i < COMMON.length; i++) if (bytes[i] !== COMMON.charCodeAt(i)) return undefined;
  let length = 0;
  for (let i = COMMON.length; i < n; i++) {
    const digit = bytes[i]! - 48;
    if (digit < 0 || digit > 9) return undefined;
    length = length * 10 + digit;
  }
  return length <= MAX_CONTENT_BYTES ? length : undefined;
}
