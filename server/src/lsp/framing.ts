// Watches the byte stream of a stream transport (stdio) for a break of the base protocol's framing:
// headers `Name: value` ending in an empty line, `Content-Length` required, then that many bytes.
// vscode-jsonrpc reads the messages; on a broken frame it reports an error and goes on reading
// from a place that is no message boundary, so the server would stay alive and never answer
// again. The server exits instead (lsp/main.ts), with this module's message on stderr, and the
// client starts it again. It reads the same chunks, beside the library's reader, and keeps no
// body: its memory is one header at most.

/** The longest header part accepted (bytes): real headers are two short lines. */
export const MAX_HEADER_BYTES = 8192;
/** The largest message accepted (bytes of content): far above any method document. */
export const MAX_CONTENT_BYTES = 512 * 1024 * 1024;

const CR = 13;
const LF = 10;

export class FrameWatch {
  /** Bytes still to skip of the current message's content (0: reading a header). */
  private remaining = 0;
  /** The header bytes read so far. */
  private header: number[] = [];
  /** Bytes of the stream before the current chunk (for the fault's position). */
  private offset = 0;

  /** Reads the next chunk of the stream; returns a fault's description, or undefined while the framing holds. */
  push(chunk: Uint8Array): string | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - i);
        this.remaining -= take;
        i += take;
        continue;
      }
      this.header.push(chunk[i]!);
      i += 1;
      const n = this.header.length;
      if (n >= 4 && this.header[n - 4] === CR && this.header[n - 3] === LF && this.header[n - 2] === CR && this.header[n - 1] === LF) {
        const start = this.offset + i - n;
        const parsed = parseHeader(this.header.slice(0, n - 4));
        this.header = [];
        if (typeof parsed === 'string') return `${parsed} (the header at byte ${start})`;
        this.remaining = parsed;
      } else if (n > MAX_HEADER_BYTES) {
        return `a header longer than ${MAX_HEADER_BYTES} bytes without its end (the header at byte ${this.offset + i - n})`;
      }
    }
    this.offset += chunk.length;
    return undefined;
  }
}

/** The content length of a header part (its lines without the empty line), or what is wrong with it. */
export function parseHeader(bytes: number[]): number | string {
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
