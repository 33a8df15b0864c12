// The documentation of a completion item chosen in a long list (completionItem/resolve): the
// concept or pipe it names, found again in the tree by its key.

import { conceptMarkdown, pipeMarkdown, writtenSignature } from '../describe.js';
import type { ConceptDecl, PipeDecl } from '../../language/model.js';
import type { Bundle } from '../../language/model.js';
import type { MethodTree } from '../../language/tree.js';
import type { LazyDocumentation } from './types.js';

function find(tree: MethodTree, bundle: Bundle, what: LazyDocumentation): ConceptDecl | PipeDecl | undefined {
  const dot = what.key.lastIndexOf('.');
  const domain = what.key.slice(0, dot);
  const code = what.key.slice(dot + 1);
  if (what.kind === 'concept') return domain === '' ? bundle.concepts.find((c) => c.code === code) : tree.symbols.get(domain)?.concepts.get(code)?.[0];
  const decls = domain === '' ? bundle.pipes.filter((p) => p.code === code) : tree.symbols.get(domain)?.pipes.get(code);
  return decls?.find((p) => !p.typeless) ?? decls?.[0];
}

export function lazyDocumentation(tree: MethodTree, bundle: Bundle, what: LazyDocumentation): string | undefined {
  const decl = find(tree, bundle, what);
  if (!decl) return undefined;
  const fromDomain = bundle.domain?.value;
  if ('table' in decl) return pipeMarkdown(tree, decl, fromDomain);
  return conceptMarkdown(tree, { kind: 'declared', key: what.key, decl }, fromDomain);
}

/** The one-line detail of the item (left out of long lists, sent on resolve). */
export function lazyDetail(tree: MethodTree, bundle: Bundle, what: LazyDocumentation): string | undefined {
  const decl = find(tree, bundle, what);
  if (!decl) return undefined;
  if ('table' in decl) return writtenSignature(decl);
  return decl.description?.value.split('\n')[0] ?? 'concept';
}
