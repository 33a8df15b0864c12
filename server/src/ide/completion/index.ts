// Completion: what may be written at the cursor, from the language description and the method
// tree. The cursor's place decides the family (keys, values, references, template variables,
// headers); a trigger character narrows it, so typing `.` or `$` never pops up unrelated items.

import { cursorPlace, wordBefore, type CursorPlace } from './cursor.js';
import { specAt } from '../../language/specPaths.js';
import { keyCompletions } from './keys.js';
import { conceptSnippets, pipeSnippets } from './snippets.js';
import type { Completion, CompletionRequest } from './types.js';
import { bareCompletions, stringCompletions } from './values.js';

export type { Completion, CompletionKind, CompletionRequest, LazyDocumentation } from './types.js';
export { lazyDetail, lazyDocumentation } from './resolve.js';
export { NATIVE_DOCUMENTATION, prepareCompletionList, prepareSharedConceptLists } from './refs.js';

/** Which places a trigger character completes in (an invoked completion completes in all). */
function triggered(place: CursorPlace, trigger: string | undefined): boolean {
  if (trigger === undefined) return true;
  switch (trigger) {
    case '"':
    case '.':
    case '$':
    case '@':
    case '{':
      return place.kind === 'string';
    case '=':
      return place.kind === 'bare';
    case '[':
      return place.kind === 'header' || place.kind === 'item';
    case ' ':
      return place.kind === 'bare' || place.kind === 'string' || (place.kind === 'key' && place.inline);
    default:
      return true;
  }
}

function headerCompletions(place: Extract<CursorPlace, { kind: 'header' }>): Completion[] {
  const { segments, segmentIndex, header } = place;
  if (segments.length <= 1 && segmentIndex === 0) {
    return [...pipeSnippets(place.range, '0'), ...conceptSnippets(place.range, '1', false)];
  }
  if (segments[0] === 'concept' && segmentIndex === 2) {
    const seg = header.key[2];
    const range = seg ? seg.range : { start: place.range.end, end: place.range.end };
    return [{ label: 'structure', kind: 'key', detail: 'the fields of the concept', documentation: 'The fields of the concept: one `field = ...` line each.', insertText: 'structure', range }];
  }
  return [];
}

function itemCompletions(req: CompletionRequest, place: Extract<CursorPlace, { kind: 'item' }>): Completion[] {
  const at = specAt(req.bundle, place.path);
  if (at.spec?.kind !== 'array' || at.spec.items.kind !== 'table' || at.spec.items.name !== 'step') return [];
  const range = wordBefore(req.bundle.doc.text, req.offset);
  const binding = at.field?.name === 'steps';
  const items: Completion[] = [
    { label: '{ pipe, result }', kind: 'snippet', detail: 'a step running a pipe', insertText: '{ pipe = "$1", result = "$2" }', snippet: true, range, sortText: '0', filterText: 'pipe' },
  ];
  if (binding) items.push({ label: '{ from, result }', kind: 'snippet', detail: 'a binding step', documentation: 'Copies the value at a path of working memory under a new name.', insertText: '{ from = "$1", result = "$2" }', snippet: true, range, sortText: '1', filterText: 'from' });
  return items;
}

export function complete(req: CompletionRequest): Completion[] {
  const place = cursorPlace(req.bundle.doc, req.offset);
  if (!triggered(place, req.trigger)) return [];
  switch (place.kind) {
    case 'key':
      return keyCompletions(req, place);
    case 'header':
      return headerCompletions(place);
    case 'string':
      return stringCompletions(req, place);
    case 'bare':
      return bareCompletions(req, place.path, place.range);
    case 'item':
      return itemCompletions(req, place);
    case 'none':
      return [];
  }
}

/** Whether completing at `offset` offers model references (so that the deck is worth waiting for). */
export function wantsModels(bundle: CompletionRequest['bundle'], offset: number): boolean {
  const place = cursorPlace(bundle.doc, offset);
  if (place.kind !== 'string' && place.kind !== 'bare') return false;
  const spec = specAt(bundle, place.path).spec;
  const roles = spec?.kind === 'oneOf' ? spec.options : spec ? [spec] : [];
  return roles.some((s) => s.kind === 'string' && s.role === 'model-ref');
}
