// Formatter options, named like taplo's so that users of other TOML formatters find their way.

export interface FormatOptions {
  /** Align the `=` of consecutive key/value lines of a table (default true). */
  alignEntries?: boolean;
  /** A trailing comma after the last item of a multi-line array (default true). */
  arrayTrailingComma?: boolean;
  /** One level of indentation inside multi-line arrays and inline tables (default two spaces). */
  indentString?: string;
  /**
   * Sort the keys of each block of consecutive key/value lines (default false: the author's order
   * carries meaning, `type` and `description` first). Blocks holding dotted keys are left alone.
   */
  reorderKeys?: boolean;
  /**
   * Parse the result and compare it with the original (values and comments); on any difference the
   * document is left as it is. Default true: formatting must never change a method.
   */
  verify?: boolean;
}

export type ResolvedFormatOptions = Required<FormatOptions>;

export const DEFAULT_FORMAT_OPTIONS: ResolvedFormatOptions = {
  alignEntries: true,
  arrayTrailingComma: true,
  indentString: '  ',
  reorderKeys: false,
  verify: true,
};

export function resolveFormatOptions(options: FormatOptions = {}): ResolvedFormatOptions {
  const out: ResolvedFormatOptions = { ...DEFAULT_FORMAT_OPTIONS };
  if (typeof options.alignEntries === 'boolean') out.alignEntries = options.alignEntries;
  if (typeof options.arrayTrailingComma === 'boolean') out.arrayTrailingComma = options.arrayTrailingComma;
  // Only blanks make an indentation: anything else would change the document.
  if (typeof options.indentString === 'string' && /^[ \t]*$/.test(options.indentString)) out.indentString = options.indentString;
  if (typeof options.reorderKeys === 'boolean') out.reorderKeys = options.reorderKeys;
  if (typeof options.verify === 'boolean') out.verify = options.verify;
  return out;
}
