// The syntax layer: a located, error-tolerant TOML 1.0 document. See types.ts for the tree.

export type * from './types.js';
export { parseToml } from './document.js';
export { parseTomlSyntax, MAX_DEPTH } from './parser.js';
export type { SyntaxOptions, SyntaxResult } from './parser.js';
export { valueOffsetToSource, sourceOffsetToValue } from './strings.js';
export { computeLineStarts, lineOfOffset, offsetToPosition, positionToOffset, rangeToLspRange, lspRangeToRange } from './positions.js';
export type { Position, LspRange } from './positions.js';
export { toPlainValue, TomlDateTime } from './values.js';
export type { PlainValue, PlainTable } from './values.js';
export { getEntry, getPath, nodeAtOffset } from './lookup.js';
export type { NodeAtOffset, PathStep, KeyAtOffset } from './lookup.js';
