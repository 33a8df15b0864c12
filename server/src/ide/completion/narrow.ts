// Long completion lists narrowed to what the client is sent: at most MAX_ITEMS, those matching the
// text typed so far (as editors filter, a subsequence ignoring case), best ranked first, the list
// then marked incomplete so that the client asks again as the user types. A list of the tree's
// names can come narrowed already from where it is made (refs.ts), without the items it would drop.

import type { Completion } from './types.js';

/**
 * The most items sent at once. A longer list is narrowed to what matches the text typed so far
 * (best ranked first) and marked incomplete: the client asks again as the user types.
 */
export const MAX_ITEMS = 500;

/** Whether `typed` (lower case) matches `candidate` as a subsequence, ignoring case (as editors filter). */
export function fuzzyMatch(typed: string, candidate: string): boolean {
  if (typed === '') return true;
  let j = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    // ASCII folded by arithmetic (no lower-cased copy of each candidate); other text as toLowerCase folds it.
    if (c >= 128) return fuzzyMatchSlow(typed, candidate);
    if ((c >= 65 && c <= 90 ? c + 32 : c) === typed.charCodeAt(j) && ++j === typed.length) return true;
  }
  return false;
}

// Text beyond ASCII (a lower case may be longer than its capital): compared as the whole lower-cased text.
function fuzzyMatchSlow(typed: string, candidate: string): boolean {
  const c = candidate.toLowerCase();
  let j = 0;
  for (let i = 0; i < c.length && j < typed.length; i++) if (c[i] === typed[j]) j++;
  return j === typed.length;
}

const sortKey = (c: Completion): string => c.sortText ?? c.label;

/** What was typed (lower case) from a range's start to the cursor, taken once per start (items share few starts). */
function typedReader(text: string, offset: number): (start: number) => string {
  let lastStart = -1;
  let typed = '';
  return (start) => {
    if (start !== lastStart) {
      lastStart = start;
      typed = text.slice(start, Math.max(start, offset)).toLowerCase();
    }
    return typed;
  };
}

/** The items to send: all of them, or the best `MAX_ITEMS` of those matching what was typed. */
export function narrow(items: readonly Completion[], text: string, offset: number): { items: readonly Completion[]; incomplete: boolean } {
  if (isNarrowed(items)) return { items, incomplete: true };
  if (items.length <= MAX_ITEMS) return { items, incomplete: false };
  // Long lists come from large trees, right after a keystroke: nothing is made per item.
  const typedAt = typedReader(text, offset);
  // While the matches come in sort-text order (lists of the tree's names do), only the first
  // MAX_ITEMS are kept: the rest are checked for order, not collected.
  const matching: Completion[] = [];
  let last: Completion | undefined;
  let sorted = true;
  for (const c of items) {
    if (!fuzzyMatch(typedAt(c.range.start), c.filterText ?? c.label)) continue;
    if (sorted && last !== undefined && sortKey(last) > sortKey(c)) {
      sorted = false;
      if (matching.length === MAX_ITEMS + 1) return sortedMatches(items, text, offset);
    }
    last = c;
    if (!sorted || matching.length <= MAX_ITEMS) matching.push(c);
  }
  if (matching.length <= MAX_ITEMS) return { items: matching, incomplete: true };
  if (sorted) return { items: matching.slice(0, MAX_ITEMS), incomplete: true };
  return bestOf(matching);
}

/** Every match of a list that turned out unsorted, then the best MAX_ITEMS of them. */
function sortedMatches(items: readonly Completion[], text: string, offset: number): { items: readonly Completion[]; incomplete: boolean } {
  const typedAt = typedReader(text, offset);
  const matching: Completion[] = [];
  for (const c of items) if (fuzzyMatch(typedAt(c.range.start), c.filterText ?? c.label)) matching.push(c);
  return bestOf(matching);
}

/** The first MAX_ITEMS of more matches than that, by sort text; equal ones keep their order (as a stable sort does). */
function bestOf(matching: Completion[]): { items: readonly Completion[]; incomplete: boolean } {
  const order = matching.map((_, i) => i);
  order.sort((a, b) => {
    const ka = sortKey(matching[a]!);
    const kb = sortKey(matching[b]!);
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  });
  return { items: order.slice(0, MAX_ITEMS).map((i) => matching[i]!), incomplete: true };
}

// Lists made narrowed already: longer than MAX_ITEMS in full, they hold what `narrow` keeps of
// the full list (its first MAX_ITEMS matches of the typed text, in sort-text order). The mark is
// a property of the list, not a WeakSet entry: these lists are made per request, and on Node 20 a
// young WeakSet key survives every scavenge.
const NARROWED: unique symbol = Symbol('narrowed');
type Marked = { [NARROWED]?: true };

/** Marks a list as made narrowed (see NARROWED). */
export function markNarrowed<T extends readonly Completion[]>(items: T): T {
  // Not enumerable: a marked list compares and copies as the plain list it is.
  Object.defineProperty(items, NARROWED, { value: true });
  return items;
}

/** Whether a list was made narrowed (see NARROWED). */
export function isNarrowed(items: readonly Completion[]): boolean {
  return (items as readonly Completion[] & Marked)[NARROWED] === true;
}
