// The classes the parser builds the tree with (types.ts describes them). Every node keeps its
// offsets as two numbers and hands out `range` from a getter: a `{start, end}` object per key,
// value, statement and entry made a keystroke's parse of a large bundle allocate, and keep alive,
// a third more, and the collector's pauses grow with what a parse allocates and keeps. A range is
// built when someone reads it (a fresh object per read: nothing relies on a range's identity, and
// assigning one sets the offsets).

import type {
  DateTimeKind,
  KeySegment,
  LArray,
  LBoolean,
  LDateTime,
  LEntry,
  LFloat,
  LInteger,
  LInvalid,
  LString,
  LTable,
  LValue,
  Range,
  StringStyle,
  TableOrigin,
} from './types.js';

/** A mutable pair of offsets that other nodes may follow (an entry's extent, a section's end). */
export interface Span {
  start: number;
  end: number;
}

/** A stand-alone extent: what an entry's range is when no node has the same one. */
export class Extent implements Span {
  constructor(
    public start: number,
    public end: number,
  ) {}

  get range(): Range {
    return { start: this.start, end: this.end };
  }
}

abstract class Located implements Span {
  constructor(
    public start: number,
    public end: number,
  ) {}

  get range(): Range {
    return { start: this.start, end: this.end };
  }

  set range(r: Range) {
    this.start = r.start;
    this.end = r.end;
  }
}

export class KeySeg extends Located implements KeySegment {
  constructor(
    readonly name: string,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class StringNode extends Located implements LString {
  readonly type = 'string';
  constructor(
    public value: string,
    start: number,
    end: number,
    public style: StringStyle,
    public contentStart: number,
    public contentEnd: number,
    public offsetMap: number[],
  ) {
    super(start, end);
  }
}

export class IntegerNode extends Located implements LInteger {
  readonly type = 'integer';
  constructor(
    public value: number | bigint,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class FloatNode extends Located implements LFloat {
  readonly type = 'float';
  constructor(
    public value: number,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class BooleanNode extends Located implements LBoolean {
  readonly type = 'boolean';
  constructor(
    public value: boolean,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class DateTimeNode extends Located implements LDateTime {
  readonly type = 'datetime';
  constructor(
    public kind: DateTimeKind,
    public value: string,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class InvalidNode extends Located implements LInvalid {
  readonly type = 'invalid';
}

export class ArrayNode extends Located implements LArray {
  readonly type = 'array';
  constructor(
    public items: LValue[],
    start: number,
    end: number,
    public ofTables: boolean,
  ) {
    super(start, end);
  }
}

/** A table's `[a.b]` / `[[a.b]]` header. */
export class TableHeader extends Located {
  constructor(
    readonly key: KeySegment[],
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class TableNode extends Located implements LTable {
  readonly type = 'table';
  entries: LEntry[] = [];
  header: TableHeader | undefined = undefined;
  constructor(
    public origin: TableOrigin,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

/**
 * An entry of a table. Its key range is its own; its range follows `def`, the extent it shares
 * with the node that defined it (the key/value statement, the header table, ...), so that growing
 * that extent while parsing grows the entry's range too.
 */
export class Entry implements LEntry {
  constructor(
    readonly key: string,
    public keyStart: number,
    public keyEnd: number,
    public value: LValue,
    public def: Span,
  ) {}

  get keyRange(): Range {
    return { start: this.keyStart, end: this.keyEnd };
  }

  set keyRange(r: Range) {
    this.keyStart = r.start;
    this.keyEnd = r.end;
  }

  get range(): Range {
    return { start: this.def.start, end: this.def.end };
  }

  set range(r: Range) {
    this.def = new Extent(r.start, r.end);
  }
}

export class CommentStatement extends Located {
  readonly kind = 'comment';
}

export class ErrorStatement extends Located {
  readonly kind = 'error';
}

export class KeyValueStatement extends Located {
  readonly kind = 'keyvalue';
  constructor(
    readonly key: KeySegment[],
    public value: LValue,
    start: number,
    end: number,
  ) {
    super(start, end);
  }
}

export class HeaderStatementNode extends Located {
  readonly kind = 'header';
  constructor(
    readonly arrayOfTables: boolean,
    readonly key: KeySegment[],
    start: number,
    end: number,
    readonly table: LTable,
  ) {
    super(start, end);
  }
}
