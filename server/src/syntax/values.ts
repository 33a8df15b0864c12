// Located nodes -> plain JavaScript values, to compare with expectations.

import type { DateTimeKind, LTable, LValue } from './types.js';

/** A TOML date/time value: its kind and its text as written (JavaScript has no local dates). */
export class TomlDateTime {
  constructor(
    readonly kind: DateTimeKind,
    readonly text: string,
  ) {}

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

export type PlainValue = string | number | bigint | boolean | TomlDateTime | PlainValue[] | PlainTable | undefined;

export interface PlainTable {
  [key: string]: PlainValue;
}

/**
 * The plain value of a node: tables become objects (without prototype, so that any key is safe),
 * arrays arrays, integers numbers (bigints beyond 2^53), date/times `TomlDateTime`s. Invalid
 * nodes become `undefined`.
 */
export function toPlainValue(node: LValue | LTable): PlainValue {
  switch (node.type) {
    case 'table': {
      const out = Object.create(null) as PlainTable;
      for (const e of node.entries) out[e.key] = toPlainValue(e.value);
      return out;
    }
    case 'array':
      return node.items.map(toPlainValue);
    case 'datetime':
      return new TomlDateTime(node.kind, node.value);
    case 'invalid':
      return undefined;
    default:
      return node.value;
  }
}
