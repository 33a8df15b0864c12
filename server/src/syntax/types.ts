// The located TOML document: the contract between the syntax layer and everything above it.
// Offsets are JavaScript string indices (UTF-16 code units) into the document text, so they
// convert directly to LSP positions (see positions.ts). Nothing here knows about MTHDS.

/** Half-open range [start, end) of UTF-16 offsets into the document text. */
export interface Range {
  start: number;
  end: number;
}

/** A TOML syntax error, located. `line` and `column` are 1-based (column counts UTF-16 units). */
export interface TomlSyntaxError {
  message: string;
  range: Range;
  line: number;
  column: number;
}

/** One segment of a (possibly dotted) key, with the range of its source text (quotes included). */
export interface KeySegment {
  name: string;
  range: Range;
}

export type StringStyle = 'basic' | 'literal' | 'ml-basic' | 'ml-literal';

export interface LString {
  type: 'string';
  value: string;
  /** The whole literal, quotes included. */
  range: Range;
  style: StringStyle;
  /**
   * Where the decoded content begins in the text: after the opening quotes (and, for multi-line
   * strings, after the newline that TOML trims right after the opening delimiter).
   */
  contentStart: number;
  /** End of the content in the text (the offset of the closing quotes). */
  contentEnd: number;
  /**
   * Discontinuities between the decoded value and the source, as flat pairs
   * [valueIndex0, sourceOffset0, valueIndex1, sourceOffset1, ...] sorted by valueIndex: from
   * valueIndex_k on, value index v maps to sourceOffset_k + (v - valueIndex_k), until the next
   * pair. Empty when the value is a verbatim copy of the source (literal strings, basic strings
   * without escapes). Use `valueOffsetToSource` rather than reading this directly.
   */
  offsetMap: number[];
}

export interface LInteger {
  type: 'integer';
  /** A number when it is a safe integer, else a bigint (TOML integers are 64-bit). */
  value: number | bigint;
  range: Range;
}

export interface LFloat {
  type: 'float';
  value: number;
  range: Range;
}

export interface LBoolean {
  type: 'boolean';
  value: boolean;
  range: Range;
}

export type DateTimeKind = 'offset-datetime' | 'local-datetime' | 'local-date' | 'local-time';

export interface LDateTime {
  type: 'datetime';
  kind: DateTimeKind;
  /** The source text of the literal, as written. */
  value: string;
  range: Range;
}

export interface LArray {
  type: 'array';
  items: LValue[];
  /** Brackets included. For an array of tables, the range of its first header. */
  range: Range;
  /** True for `[[name]]` arrays of tables. */
  ofTables: boolean;
}

/** How a table came to exist. */
export type TableOrigin =
  | 'root' // the document itself
  | 'header' // [a.b]
  | 'array-element' // one [[a.b]] element
  | 'implicit' // a parent created by a header or a dotted key, never declared itself
  | 'dotted' // created by a dotted key `a.b = 1`
  | 'inline'; // { ... }

export interface LEntry {
  /** The key of this entry inside its table (one segment). */
  key: string;
  /**
   * Range of the key segment's source text where the entry was (first) defined: in a header
   * `[pipe.summarize]` the entry `summarize` of table `pipe` has the range of `summarize`.
   */
  keyRange: Range;
  value: LValue;
  /**
   * The whole definition: `key = value` for a key/value pair (the full dotted key from its first
   * segment), or from the header's `[` to the end of the table's last line for a header table.
   */
  range: Range;
}

export interface LTable {
  type: 'table';
  origin: TableOrigin;
  /** Entries in source order. Duplicate definitions are reported as errors and not added. */
  entries: LEntry[];
  /**
   * The extent of the table: braces for inline tables; header to end of its last statement for
   * header tables; the whole document for the root; for implicit/dotted tables, the span covering
   * their entries.
   */
  range: Range;
  /** The `[a.b]` / `[[a.b]]` header, when the table was declared by one. */
  header?: { range: Range; key: KeySegment[] };
}

/** A value that could not be parsed; its range covers the text that was skipped. */
export interface LInvalid {
  type: 'invalid';
  range: Range;
}

export type LScalar = LString | LInteger | LFloat | LBoolean | LDateTime;
export type LValue = LScalar | LArray | LTable | LInvalid;

/** A statement of the document in source order, for symbols, folding and formatting. */
export type Statement =
  | { kind: 'header'; arrayOfTables: boolean; key: KeySegment[]; range: Range; table: LTable }
  | { kind: 'keyvalue'; key: KeySegment[]; value: LValue; range: Range }
  | { kind: 'comment'; range: Range }
  | { kind: 'error'; range: Range };

/** The statement kinds, by name. */
export type HeaderStatement = Extract<Statement, { kind: 'header' }>;
export type KeyValueStatement = Extract<Statement, { kind: 'keyvalue' }>;

export interface TomlDocument {
  text: string;
  root: LTable;
  /** Empty when the text is valid TOML 1.0 (smol-toml is the authority on that). */
  errors: TomlSyntaxError[];
  statements: Statement[];
  /** Offsets at which each line starts (line 0 starts at 0). */
  lineStarts: number[];
}
