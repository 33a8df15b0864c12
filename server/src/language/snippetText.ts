// The syntax of the snippets the language description writes (tab stops, placeholders with
// defaults, choices, escapes): what a snippet inserts once its placeholders are filled. Completion
// sends the snippets; the sample bundles are the snippets expanded.

/** Shifts the tab stops of a snippet by `by` (`$1` → `$2`, `${1:x}` → `${2:x}`), escapes kept. */
export function shiftTabStops(snippet: string, by: number): string {
  return snippet.replace(/\\.|\$\{(\d+)|\$(\d+)/g, (m, braced: string | undefined, bare: string | undefined) => {
    if (braced !== undefined) return `\${${Number(braced) + by}`;
    if (bare !== undefined) return `$${Number(bare) + by}`;
    return m;
  });
}

/** Characters a backslash escapes in snippet text (and, inside a choice, its separators). */
const ESCAPED = '$}\\';
const ESCAPED_IN_CHOICE = '$}\\,|';
/** `$1`, `$name`; and the opening of `${1...}`, `${name...}`. */
const TAB_STOP = /\$(\d+|[A-Za-z_][A-Za-z0-9_]*)/y;
const OPEN = /\$\{(\d+|[A-Za-z_][A-Za-z0-9_]*)/y;

/**
 * The text a snippet inserts when every placeholder keeps its default (a choice its first option,
 * a bare tab stop or variable nothing): what a client without snippet support is sent.
 */
export function snippetText(snippet: string): string {
  return expandSnippet(snippet).text;
}

/** Where a numbered placeholder's value ended up in the expanded text. */
export interface SnippetPlaceholder {
  index: number;
  start: number;
  end: number;
}

/**
 * The text a snippet inserts, with the value `fill` gives a numbered placeholder (every occurrence
 * of its number: what a user typing into it gets) or else its default, and where each placeholder's
 * value lies in that text.
 */
export function expandSnippet(snippet: string, fill?: (index: number) => string | undefined): { text: string; placeholders: SnippetPlaceholder[] } {
  let i = 0;
  let out = '';
  const placeholders: SnippetPlaceholder[] = [];
  const at = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    const m = re.exec(snippet);
    return m ? m[0] : undefined;
  };
  function choice(): string {
    const options: string[] = [];
    let option = '';
    while (i < snippet.length && !(snippet[i] === '|' && snippet[i + 1] === '}')) {
      const c = snippet[i]!;
      if (c === '\\' && ESCAPED_IN_CHOICE.includes(snippet[i + 1] ?? '')) {
        option += snippet[i + 1];
        i += 2;
        continue;
      }
      if (c === ',') {
        options.push(option);
        option = '';
      } else option += c;
      i++;
    }
    i += 2;
    return options[0] ?? option;
  }
  function body(inPlaceholder: boolean): void {
    while (i < snippet.length) {
      const c = snippet[i]!;
      if (c === '\\' && ESCAPED.includes(snippet[i + 1] ?? '')) {
        out += snippet[i + 1];
        i += 2;
        continue;
      }
      if (inPlaceholder && c === '}') {
        i++;
        return;
      }
      const bare = c === '$' ? at(TAB_STOP) : undefined;
      if (bare !== undefined) {
        i += bare.length;
        continue;
      }
      const open = c === '$' ? at(OPEN) : undefined;
      if (open !== undefined) {
        i += open.length;
        const next = snippet[i];
        i++;
        const start = out.length;
        const inner = placeholders.length;
        if (next === ':') body(true);
        else if (next === '|') out += choice();
        const index = /^\d+$/.test(open.slice(2)) ? Number(open.slice(2)) : undefined;
        if (index === undefined) continue;
        const value = fill?.(index);
        if (value !== undefined) {
          out = out.slice(0, start) + value;
          placeholders.length = inner;
        }
        placeholders.push({ index, start, end: out.length });
        continue;
      }
      out += c;
      i++;
    }
  }
  body(false);
  return { text: out, placeholders };
}
