// Formatter options: the server's formatter reads `alignEntries`, `arrayTrailingComma` and
// `reorderKeys` as extra members of the LSP formatting options (server/src/lsp/formatting.ts),
// beside the editor's tab size. VS Code knows only its own members, so the client adds ours from
// the `mthds.format.*` settings. Pure.

export interface FormatSettings {
  /** False: the extension formats nothing (another formatter may). */
  enable: boolean;
  alignEntries?: boolean;
  arrayTrailingComma?: boolean;
  reorderKeys?: boolean;
}

const FLAGS = ['alignEntries', 'arrayTrailingComma', 'reorderKeys'] as const;

/** Reads `mthds.format.*` through `get` (a WorkspaceConfiguration's `get` for section `mthds.format`). */
export function readFormatSettings(get: (key: string) => unknown): FormatSettings {
  const out: FormatSettings = { enable: get('enable') !== false };
  for (const flag of FLAGS) {
    const v = get(flag);
    if (typeof v === 'boolean') out[flag] = v;
  }
  return out;
}

/** The LSP formatting options with the formatter's own options added. */
export function withFormatOptions<T extends object>(options: T, settings: FormatSettings): T & Partial<Record<(typeof FLAGS)[number], boolean>> {
  const out: T & Partial<Record<(typeof FLAGS)[number], boolean>> = { ...options };
  for (const flag of FLAGS) {
    const v = settings[flag];
    if (v !== undefined) out[flag] = v;
  }
  return out;
}
