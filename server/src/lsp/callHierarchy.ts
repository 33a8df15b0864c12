// textDocument/prepareCallHierarchy, callHierarchy/incomingCalls and outgoingCalls over pipes, and
// textDocument/implementation (a signature to the pipes implementing it, and back). The language
// side is language/callHierarchy.ts; here, LSP items and ranges. An item remembers the document it
// was prepared from, so that its calls are read in the same method tree.

import {
  SymbolKind,
  type CallHierarchyIncomingCall,
  type CallHierarchyIncomingCallsParams,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type CallHierarchyOutgoingCallsParams,
  type CallHierarchyPrepareParams,
  type ImplementationParams,
  type Location,
} from 'vscode-languageserver';
import { implementationsAt, incomingCalls, outgoingCalls, pipeAt } from '../ide/index.js';
import type { Bundle, PipeDecl } from '../language/model.js';
import { bundleOfFile, treeOfBundle, type MethodTree } from '../language/tree.js';
import { toLspRange } from './convert.js';
import { locatorFor, type FeatureContext } from './featureContext.js';

interface ItemData {
  /** The document the hierarchy was prepared from (its tree is searched). */
  from: string;
  /** The pipe: its file and code. */
  file: string;
  code: string;
}

function isItemData(v: unknown): v is ItemData {
  return typeof v === 'object' && v !== null && typeof (v as ItemData).from === 'string' && typeof (v as ItemData).file === 'string' && typeof (v as ItemData).code === 'string';
}

function itemOf(ctx: FeatureContext, tree: MethodTree, from: string, pipe: PipeDecl): CallHierarchyItem {
  const locator = locatorFor(treeOfBundle(pipe.bundle) ?? tree, ctx.host.locator);
  const domain = pipe.bundle.domain?.value;
  const kind = pipe.typeless ? 'signature' : (pipe.type?.value ?? 'pipe');
  const data: ItemData = { from, file: pipe.bundle.file, code: pipe.code };
  return {
    name: pipe.code,
    kind: SymbolKind.Function,
    detail: domain === undefined ? kind : `${kind} · ${domain}`,
    uri: locator.uriOf(pipe.bundle.file),
    range: toLspRange(locator, pipe.bundle.file, pipe.range),
    selectionRange: toLspRange(locator, pipe.bundle.file, pipe.codeRange),
    data,
  };
}

/** The tree of the document an item was prepared from, from the latest finished check. */
function treeFor(ctx: FeatureContext, file: string): MethodTree | undefined {
  return ctx.host.views.viewOf(file)?.tree ?? ctx.host.ensureCurrent(file)?.tree;
}

/** The bundle of a file in a tree or one of its dependencies. */
function bundleIn(tree: MethodTree, file: string): Bundle | undefined {
  const own = bundleOfFile(tree, file);
  if (own) return own;
  for (const dep of tree.dependencies?.values() ?? []) {
    const found = bundleOfFile(dep.tree, file);
    if (found) return found;
  }
  return undefined;
}

function resolveItem(ctx: FeatureContext, item: CallHierarchyItem): { tree: MethodTree; from: string; pipe: PipeDecl } | undefined {
  if (!isItemData(item.data)) return undefined;
  const { from, file, code } = item.data;
  const tree = treeFor(ctx, from);
  const pipe = tree ? bundleIn(tree, file)?.pipes.find((p) => p.code === code) : undefined;
  return tree && pipe ? { tree, from, pipe } : undefined;
}

export function prepareCallHierarchy(ctx: FeatureContext, params: CallHierarchyPrepareParams): CallHierarchyItem[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  const view = doc ? ctx.viewOf(doc) : undefined;
  if (!doc || !view) return null;
  const pipe = pipeAt(view.tree, view.bundle, doc.offset(params.position));
  return pipe ? [itemOf(ctx, view.tree, doc.file, pipe)] : null;
}

export function callHierarchyIncoming(ctx: FeatureContext, params: CallHierarchyIncomingCallsParams): CallHierarchyIncomingCall[] | null {
  const at = resolveItem(ctx, params.item);
  if (!at) return null;
  return incomingCalls(at.tree, at.pipe).map((call) => {
    const locator = locatorFor(treeOfBundle(call.pipe.bundle) ?? at.tree, ctx.host.locator);
    return { from: itemOf(ctx, at.tree, at.from, call.pipe), fromRanges: call.ranges.map((r) => toLspRange(locator, call.pipe.bundle.file, r)) };
  });
}

export function callHierarchyOutgoing(ctx: FeatureContext, params: CallHierarchyOutgoingCallsParams): CallHierarchyOutgoingCall[] | null {
  const at = resolveItem(ctx, params.item);
  if (!at) return null;
  const locator = locatorFor(treeOfBundle(at.pipe.bundle) ?? at.tree, ctx.host.locator);
  return outgoingCalls(at.tree, at.pipe).map((call) => ({ to: itemOf(ctx, at.tree, at.from, call.pipe), fromRanges: call.ranges.map((r) => toLspRange(locator, at.pipe.bundle.file, r)) }));
}

export function implementation(ctx: FeatureContext, params: ImplementationParams): Location[] | null {
  const doc = ctx.docOf(params.textDocument.uri);
  const view = doc ? ctx.viewOf(doc) : undefined;
  if (!doc || !view) return null;
  const found = implementationsAt(view.tree, view.bundle, doc.offset(params.position));
  if (found.length === 0) return null;
  return found.map((p) => {
    const locator = locatorFor(treeOfBundle(p.bundle) ?? view.tree, ctx.host.locator);
    return { uri: locator.uriOf(p.bundle.file), range: toLspRange(locator, p.bundle.file, p.codeRange) };
  });
}
