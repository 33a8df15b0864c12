// Go to definition / declaration, find references and document highlights, over the occurrences of
// the whole method tree (every bundle, open or on disk), as of the latest finished check with the
// open buffers parsed ahead (views.ts): a pending check or update is never waited for.

import {
  DocumentHighlightKind,
  type DeclarationParams,
  type DefinitionParams,
  type DocumentHighlight,
  type DocumentHighlightParams,
  type Location,
  type LocationLink,
  type ReferenceParams,
  type TextDocumentPositionParams,
} from 'vscode-languageserver';
import { occurrenceAt, occurrencesOfSymbol, targetsOf } from '../ide/index.js';
import { toLspRange } from './convert.js';
import { locatorFor, type FeatureContext } from './featureContext.js';

/** The occurrence under the cursor, with its document and tree. */
function occurrenceUnder(ctx: FeatureContext, params: TextDocumentPositionParams) {
  const doc = ctx.docOf(params.textDocument.uri);
  const found = doc ? ctx.viewOf(doc) : undefined;
  const o = doc && found ? occurrenceAt(found.tree, found.bundle, doc.offset(params.position)) : undefined;
  return doc && found && o ? { doc, found, o } : undefined;
}

export function definition(ctx: FeatureContext, params: DefinitionParams | DeclarationParams, mode: 'definition' | 'declaration'): Location[] | LocationLink[] | null {
  const at = occurrenceUnder(ctx, params);
  if (!at) return null;
  const { doc, found, o } = at;
  const targets = targetsOf(found.tree, o, mode);
  if (targets.length === 0) return null;
  const locator = locatorFor(found.tree, ctx.host.locator);
  const caps = ctx.host.capabilities().textDocument;
  const links = (mode === 'definition' ? caps?.definition?.linkSupport : caps?.declaration?.linkSupport) === true;
  if (links) {
    const origin = toLspRange(locator, doc.file, o.range);
    return targets.map((t) => ({
      originSelectionRange: origin,
      targetUri: locator.uriOf(t.file),
      targetRange: toLspRange(locator, t.file, t.range),
      targetSelectionRange: toLspRange(locator, t.file, t.nameRange),
    }));
  }
  return targets.map((t) => ({ uri: locator.uriOf(t.file), range: toLspRange(locator, t.file, t.nameRange) }));
}

export function references(ctx: FeatureContext, params: ReferenceParams): Location[] | null {
  const at = occurrenceUnder(ctx, params);
  if (!at) return null;
  const { found, o } = at;
  const locator = locatorFor(found.tree, ctx.host.locator);
  return occurrencesOfSymbol(found.tree, o)
    .filter((x) => params.context.includeDeclaration || x.role !== 'declaration')
    .map((x) => ({ uri: locator.uriOf(x.file), range: toLspRange(locator, x.file, x.range) }));
}

export function documentHighlights(ctx: FeatureContext, params: DocumentHighlightParams): DocumentHighlight[] | null {
  const at = occurrenceUnder(ctx, params);
  if (!at) return null;
  const { doc, found, o } = at;
  return occurrencesOfSymbol(found.tree, o)
    .filter((x) => x.file === doc.file)
    .map((x) => ({ range: toLspRange(ctx.host.locator, x.file, x.range), kind: x.role === 'declaration' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}
