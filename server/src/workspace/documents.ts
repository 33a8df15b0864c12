// The documents of an editor session, whatever tree holds them: the open buffers (which win over
// the files on disk), the parse of every file read (reused while its text is the same), the last
// parse of a file changed on disk (the next parse takes over from it) and the log of changed files
// that lets a tree's next check read only those. Trees share these: a file is parsed once however
// many checks read it, and dropping a tree drops only the parses of its files.
//
// Files are known by an identity: the absolute path of a file, or the URI of a document that is no
// file (an untitled buffer).

import { makeFinding, type Finding } from '../check/finding.js';
import { buildBundle } from '../language/buildBundle.js';
import { buildManifest, type Manifest } from '../language/manifest.js';
import type { Bundle } from '../language/model.js';
import { computeLineStarts } from '../syntax/positions.js';
import { parseToml } from '../syntax/document.js';
import type { TomlDocument } from '../syntax/types.js';
import { sizePastLimit, tooLargeFinding } from './documentSize.js';
import { refusedReadFinding } from './load.js';
import type { FileSystem } from './fileSystem.js';
import type { ReadStamp, RefusedRead } from './methodText.js';
import { isFilePath } from './treeLocator.js';

export type FileId = string;

export type FileKind = 'bundle' | 'manifest' | 'lock';

export interface ParsedFile {
  /** The text it was parsed from. */
  text: string;
  /** `open:` and the generation of the open buffer it was parsed from, or the disk stamp it was read at. */
  stamp: string;
  readonly lineStarts: number[];
  /** The document parsed (none when parsing failed). */
  readonly doc?: TomlDocument;
  bundle?: Bundle;
  manifest?: Manifest;
  lock?: TomlDocument;
  /** A fault of the bytes on disk (not UTF-8, NUL byte), located in `text`. */
  fault?: { offset: number; message: string };
  /** The size of a bundle past the analysed size (`documentSize.ts`): left unparsed, out of its tree. */
  oversize?: number;
}

interface Unreadable {
  stamp: string;
  refusal: RefusedRead;
}

/** How many file changes are logged before the log starts again (trees are then read whole). */
const CHANGE_LOG_MAX = 4096;
/** How many files a sweep of the parses goes through between two pauses. */
export const RELEASED_PER_STEP = 512;

export class Documents {
  private readonly buffers = new Map<FileId, string>();
  /**
   * Per open file, the generation of its text: a parse of the buffer is current when made at the
   * same one. A text set again the same keeps its generation, told by comparing the two, except past
   * the analysed size: two long texts of one length are compared by content, which makes both flat
   * (the pieces of an edited document joined, lsp/pieceDocument.ts), and such a text is not parsed.
   */
  private readonly generations = new Map<FileId, number>();
  private generation = 0;
  /** Per open file, the order it was opened in (see openAmong). */
  private readonly openSeq = new Map<FileId, number>();
  private opened = 0;
  /** How many open files each tree has: undefined when trees may have regrouped (made again when asked). */
  private openCounts: Map<string, number> | undefined;
  private readonly openKeys = new Map<FileId, string>();
  private readonly parsed = new Map<FileId, ParsedFile | Unreadable>();
  /**
   * The last parse of each file changed on disk since, until it is read again: the next parse
   * takes over its statements before and after the changed stretch (parseToml's `previous`), so an
   * update of many files makes, and the collector copies, only what changed.
   */
  private readonly previousParse = new Map<FileId, TomlDocument>();
  /**
   * Files whose text or presence may have changed, in order: a tree's next check reads again the
   * files logged since its last check began. Bounded: past the bound it starts again, and trees
   * checked before are read whole.
   */
  private changeLog: FileId[] = [];
  private changeStart = 0;
  /** How many files have been parsed (a check in steps pauses after a few). */
  parses = 0;

  /**
   * `treeKeyOf` says which tree a file is in now (open files are counted per tree); `validateDisk`
   * compares each cached disk file's modification time before reusing its parse.
   */
  constructor(
    /** What files are read through: the disk on the desktop, the client's files in a browser. */
    readonly fs: FileSystem,
    private readonly treeKeyOf: (file: FileId) => string,
    private readonly validateDisk: boolean,
  ) {}

  // ---- buffers -------------------------------------------------------------------------------

  isOpen(file: FileId): boolean {
    return this.buffers.has(file);
  }

  openFiles(): FileId[] {
    return [...this.buffers.keys()];
  }

  /** Opens or updates a buffer (a change to log); returns whether it was open already. */
  setBuffer(file: FileId, text: string): boolean {
    const before = this.buffers.get(file);
    const wasOpen = before !== undefined;
    if (before === undefined || sizePastLimit(text) !== undefined || before !== text) this.generations.set(file, ++this.generation);
    this.buffers.set(file, text);
    if (!wasOpen) this.openSeq.set(file, ++this.opened);
    this.changed(file);
    return wasOpen;
  }

  /** Counts a newly opened file in the tree it is in. */
  countOpen(file: FileId, key: string): void {
    if (!this.openCounts) return;
    this.openKeys.set(file, key);
    this.openCounts.set(key, (this.openCounts.get(key) ?? 0) + 1);
  }

  /** Closes a buffer: the file on disk counts again, the buffer's parse is the previous version of its next. */
  closeBuffer(file: FileId): void {
    if (this.buffers.delete(file)) this.forgetOpen(file);
    this.generations.delete(file);
    // Most often the same text, saved.
    this.forgetParse(file, true);
    this.changed(file);
  }

  /** Trees may have regrouped (a manifest came or went, the folders changed): open files are counted again when asked. */
  regroup(): void {
    this.openCounts = undefined;
  }

  /**
   * True when a buffer of the tree is open (its parsed files are worth keeping). Counted per tree,
   * not by locating every open file at each call: thousands of documents opened at once would
   * otherwise cost a pass over all of them per check.
   */
  hasOpenDocument(key: string): boolean {
    if (!this.openCounts) {
      this.openCounts = new Map();
      this.openKeys.clear();
      for (const file of this.buffers.keys()) {
        const k = this.treeKeyOf(file);
        this.openKeys.set(file, k);
        this.openCounts.set(k, (this.openCounts.get(k) ?? 0) + 1);
      }
    }
    return (this.openCounts.get(key) ?? 0) > 0;
  }

  private forgetOpen(file: FileId): void {
    this.openSeq.delete(file);
    const key = this.openKeys.get(file);
    this.openKeys.delete(file);
    if (this.openCounts && key !== undefined) {
      const left = (this.openCounts.get(key) ?? 1) - 1;
      if (left > 0) this.openCounts.set(key, left);
      else this.openCounts.delete(key);
    } else this.openCounts = undefined;
  }

  /** The open files among `files` (`count` of them), in the order they were opened; by the shorter way. */
  openAmong(files: Iterable<FileId>, count: number, has: (file: FileId) => boolean): FileId[] {
    if (count >= this.buffers.size) return [...this.buffers.keys()].filter(has);
    const found: FileId[] = [];
    for (const file of files) if (this.buffers.has(file)) found.push(file);
    return found.sort((a, b) => this.openSeq.get(a)! - this.openSeq.get(b)!);
  }

  // ---- the disk --------------------------------------------------------------------------------

  /** Whether a file is on disk (a buffer does not count). */
  onDisk(file: string): boolean {
    return this.fs.exists(file);
  }

  // ---- the change log --------------------------------------------------------------------------

  /** A file's text or presence may have changed. */
  changed(file: FileId): void {
    this.changeLog.push(file);
    if (this.changeLog.length > CHANGE_LOG_MAX) {
      this.changeStart += this.changeLog.length;
      this.changeLog = [];
    }
  }

  /** The position in the change log now (a check notes it when it begins). */
  logPosition(): number {
    return this.changeStart + this.changeLog.length;
  }

  /** The files changed since `position`, or undefined when the log has started again since. */
  changedSince(position: number): FileId[] | undefined {
    return position < this.changeStart ? undefined : this.changeLog.slice(position - this.changeStart);
  }

  // ---- texts -----------------------------------------------------------------------------------

  /** The current text of a file (its buffer, else what was last read from disk). */
  textOf(file: FileId): string | undefined {
    const buffer = this.buffers.get(file);
    if (buffer !== undefined) return buffer;
    const parsed = this.parsed.get(file);
    if (parsed && 'text' in parsed) return parsed.text;
    if (!isFilePath(file)) return undefined;
    const read = this.fs.readMethodFile(file);
    return read.ok ? read.text : undefined;
  }

  /** The stamp of a parse of an open file's current text. */
  private openStamp(file: FileId): string {
    return `open:${this.generations.get(file)}`;
  }

  /** Line starts of a file's current text (for converting offsets). */
  lineStartsOf(file: FileId): number[] {
    const parsed = this.parsed.get(file);
    if (parsed && 'lineStarts' in parsed && (!this.buffers.has(file) || parsed.stamp === this.openStamp(file))) return parsed.lineStarts;
    return computeLineStarts(this.textOf(file) ?? '');
  }

  // ---- parses ----------------------------------------------------------------------------------

  /**
   * Parses (or reuses) one file of the tree rooted at `root`; undefined when it is gone from disk.
   * Faults (refused reads, bytes that are not text) become findings in `out`.
   */
  load(file: FileId, kind: FileKind, root: string, out: Finding[]): ParsedFile | undefined {
    const buffer = this.buffers.get(file);
    let cached = this.parsed.get(file);
    if (buffer !== undefined) {
      const stamp = this.openStamp(file);
      if (!cached || !('lineStarts' in cached) || cached.stamp !== stamp) {
        cached = this.parse(file, buffer, stamp, kind);
        this.parsed.set(file, cached);
      }
      if (cached.oversize !== undefined) out.push(tooLargeFinding(file, cached.oversize));
      return cached;
    }
    if (cached && cached.stamp.startsWith('open')) cached = undefined;
    if (cached && this.validateDisk && cached.stamp !== diskStamp(this.fs, file)) {
      this.forgetParse(file, true);
      cached = undefined;
    }
    if (!cached) {
      const previous = this.previousParse.get(file);
      this.previousParse.delete(file);
      const read = this.fs.readMethodFile(file);
      if (!read.ok && read.kind === 'missing') {
        this.parsed.delete(file);
        return undefined;
      }
      // The version read, from the descriptor it was read through where the file system says it.
      const stamp = !this.validateDisk ? 'disk' : read.ok && read.stamp ? stampText(read.stamp) : diskStamp(this.fs, file);
      if (!read.ok) cached = { stamp, refusal: read };
      else {
        cached = this.parse(file, read.text, stamp, kind, previous);
        if ('fault' in read) cached.fault = { offset: read.fault.offset, message: read.fault.message };
      }
      this.parsed.set(file, cached);
    }
    if (!('lineStarts' in cached)) {
      out.push(refusedReadFinding(root, file, cached.refusal));
      return { text: '', stamp: cached.stamp, lineStarts: [0] };
    }
    if (cached.oversize !== undefined) out.push(tooLargeFinding(file, cached.oversize));
    if (cached.fault) out.push(makeFinding('method.syntax', { finding: cached.fault.message }, file, { start: cached.fault.offset, end: cached.fault.offset + 1 }));
    return cached;
  }

  /** Drops the parse of a file, kept as the previous version of the next when `keep`. */
  forgetParse(file: FileId, keep: boolean): void {
    const parsed = keep ? this.parsed.get(file) : undefined;
    const doc = parsed && 'doc' in parsed ? parsed.doc : undefined;
    if (doc) this.previousParse.set(file, doc);
    else this.previousParse.delete(file);
    this.parsed.delete(file);
  }

  /** Drops the parse of a file that is not open (a lock file changed on disk: read whole again). */
  dropParse(file: FileId): void {
    if (!this.buffers.has(file)) this.parsed.delete(file);
  }

  /** Drops the parses, current and previous, of the files among `files` that are not open. */
  forgetFiles(files: Iterable<FileId>): void {
    for (const file of files) this.forgetFile(file);
  }

  /** forgetFiles in steps (a few hundred files each), counting on from `n` files gone through. */
  *forgetFilesSteps(files: Iterable<FileId>, n = 0): Generator<void, void> {
    for (const file of files) {
      if (++n % RELEASED_PER_STEP === 0) yield;
      this.forgetFile(file);
    }
  }

  private forgetFile(file: FileId): void {
    if (this.buffers.has(file)) return;
    this.parsed.delete(file);
    this.previousParse.delete(file);
  }

  /**
   * Keeps the parses of the files in `live` (and of the open files) only, in steps counting on
   * from `n` files gone through; stops at a pause after which `stale` says a check has read files
   * since `live` was made (the next sweep sees them).
   */
  *keepOnlySteps(live: ReadonlySet<FileId>, n: number, stale: () => boolean): Generator<void, void> {
    const sweeps: Array<[Map<FileId, unknown>, (file: FileId) => boolean]> = [
      [this.parsed, (file) => this.buffers.has(file) || live.has(file)],
      [this.previousParse, (file) => live.has(file)],
    ];
    for (const [files, stays] of sweeps) {
      for (const file of files.keys()) {
        if (++n % RELEASED_PER_STEP === 0) {
          yield;
          if (stale()) return;
        }
        if (!stays(file)) files.delete(file);
      }
    }
  }

  /** How many parses are kept, current and previous (a test counts that a tree leaves none). */
  kept(): { parsed: number; previousParses: number } {
    return { parsed: this.parsed.size, previousParses: this.previousParse.size };
  }

  private parse(file: FileId, text: string, stamp: string, kind: FileKind, previous?: TomlDocument): ParsedFile {
    this.parses += 1;
    const oversize = kind === 'bundle' ? sizePastLimit(text) : undefined;
    if (oversize !== undefined) return new UnparsedText(text, stamp, oversize);
    try {
      const doc = parseToml(text, previous);
      const parsed = new ParsedText(text, stamp, doc);
      if (kind === 'bundle') parsed.bundle = buildBundle(file, doc);
      else if (kind === 'manifest') parsed.manifest = buildManifest(file, doc);
      else parsed.lock = doc;
      return parsed;
    } catch (error) {
      // The syntax layer never throws by contract; should it ever, the editor gets a finding, not a crash.
      const message = `the document could not be parsed (${error instanceof Error ? error.message : String(error)})`;
      return { text, stamp, lineStarts: computeLineStarts(text), fault: { offset: 0, message } };
    }
  }
}

/**
 * A file parsed. Its line starts are the document's, computed when first asked for (to place a
 * finding or answer a request): most files of a large tree never need them, and an update parsing
 * a thousand files would otherwise keep an array per file that young-generation collections copy.
 * A class, not a literal with a getter (a map per object, see heap.ts).
 */
class ParsedText implements ParsedFile {
  bundle?: Bundle;
  manifest?: Manifest;
  lock?: TomlDocument;
  fault?: { offset: number; message: string };

  constructor(
    readonly text: string,
    readonly stamp: string,
    readonly doc: TomlDocument,
  ) {}

  get lineStarts(): number[] {
    return this.doc.lineStarts;
  }
}

/** A bundle too large to analyse: its text, its line starts when asked, no document. */
class UnparsedText implements ParsedFile {
  private starts: number[] | undefined;

  constructor(
    readonly text: string,
    readonly stamp: string,
    readonly oversize: number,
  ) {}

  get lineStarts(): number[] {
    return (this.starts ??= computeLineStarts(this.text));
  }
}

function diskStamp(fs: FileSystem, file: string): string {
  const s = fs.stat(file);
  return s !== undefined ? stampText(s) : 'disk:missing';
}

const stampText = (s: ReadStamp): string => `disk:${s.mtimeMs}:${s.size}`;
