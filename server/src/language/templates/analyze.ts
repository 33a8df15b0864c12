// Variable analysis of Jinja2 templates, on the parser of @huggingface/jinja: every free variable
// path a template reads, with its exact place in the template, whether a guard protects it, and
// parse faults located at the construct that breaks. The parser gives no positions, so tokens are
// located in the source as they are read (token order is source order).

import { parse, tokenize } from '@huggingface/jinja';
import { LRUCache } from 'lru-cache';
import { lazy } from '../../util/lazy.js';
import { collectShorthandUses, preprocessShorthands, type ShorthandUse } from './preprocess.js';
import { detached } from '../../util/detached.js';
import { SecondSight } from './admission.js';

export interface VariableRead {
  /** Attribute chain from the root: `doc.summary.text` → ['doc', 'summary', 'text']. */
  path: string[];
  /** Offsets in the template as written (before the shorthand rewrite). */
  start: number;
  end: number;
  /** Inside `{% if root %}`, `x if root else y`, or written `@?root`. */
  guarded: boolean;
  /** Written with a shorthand (`$x`, `@x`, `@?x`), or `undefined` for plain Jinja. */
  sigil?: ShorthandUse['sigil'];
}

export interface TemplateFault {
  message: string;
  start: number;
  end: number;
}

export interface TemplateAnalysis {
  reads: VariableRead[];
  /** Whole variables tested by a presence check (`{% if x %}`, `@?x`, `x is defined`), with where. */
  presenceChecks: Array<{ root: string; start: number; end: number }>;
  fault?: TemplateFault;
  /** Not analysed: longer (UTF-16 units) than the limit this process sets (`limitTemplateAnalysis`). */
  tooLong?: { length: number; limit: number };
}

/**
 * The longest template the language server analyses (UTF-16 units). Analysing a template is one
 * step that nothing can cut (the Jinja parser's), about 0.3-0.4 µs a character: a prompt of 0.5 MB
 * held the server 150-300 ms at each change, and every feature reading its variables again. Past
 * it, a template's variables are not read in the editor (`mthdsls.client.template_too_long` says
 * so); `mthds check` reads every template.
 */
export const EDITOR_TEMPLATE_LIMIT = 64 * 1024;

let templateLimit = Infinity;

/**
 * Sets, for this process, the longest template analysed (the language server's processes set
 * EDITOR_TEMPLATE_LIMIT, and the runner they host shares it; a command line sets none).
 */
export function limitTemplateAnalysis(limit: number): void {
  templateLimit = limit;
}

export interface AnalyzeOptions {
  /** `$var` / `@var` shorthands apply (prompts and templates, not condition expressions). */
  shorthands: boolean;
  /** The text is a bare expression (`expression` of a PipeCondition), wrapped in `{{ }}`. */
  expression?: boolean;
}

/** Names the template environment provides: never inputs. */
const GLOBALS = new Set(['loop', 'range', 'dict', 'namespace', 'cycler', 'joiner', 'lipsum', 'true', 'false', 'none', 'True', 'False', 'None', 'caller', 'varargs', 'kwargs', 'self']);

interface Node {
  type: string;
  [key: string]: unknown;
}

interface LocatedToken {
  value: string;
  type: string;
  start: number;
  end: number;
}

export function analyzeTemplate(template: string, options: AnalyzeOptions): TemplateAnalysis {
  if (template.length > templateLimit) return { reads: [], presenceChecks: [], tooLong: { length: template.length, limit: templateLimit } };
  // Most prompts hold no Jinja of their own: their reads are exactly their shorthands.
  if (options.shorthands && !options.expression && !hasBrace(template)) {
    // Looked up by the text itself: an editor's parse shares the string of every prompt it did not
    // touch, so its hash is computed once, not at every check.
    const kept = shorthandAnalyses().get(template);
    if (kept) return kept;
    if (template.length > MAX_KEPT || !shorthandSeen.admit('', template)) return shorthandAnalysis(template);
    const own = detached(template);
    const analysis = shorthandAnalysis(own);
    for (const read of analysis.reads) Object.freeze(read.path);
    deepFreeze(analysis);
    shorthandAnalyses().set(own, analysis);
    return analysis;
  }
  const cached = analyses().get(`${options.shorthands ? 1 : 0}${options.expression ? 1 : 0}${template}`);
  if (cached) return cached;
  // What the cache keeps (the key, the analysis's strings) must not hold the bundle's text.
  const own = detached(template);
  const key = `${options.shorthands ? 1 : 0}${options.expression ? 1 : 0}${own}`;
  const analysis = analyzeJinja(own, options);
  // Shared by every caller that analyzes the same text: frozen so that none can change another's.
  for (const read of analysis.reads) Object.freeze(read.path);
  deepFreeze(analysis);
  if (key.length <= MAX_KEPT) analyses().set(key, analysis);
  return analysis;
}

/** The reads of a template without Jinja of its own: its shorthands. */
function shorthandAnalysis(template: string): TemplateAnalysis {
  scratchUses.length = 0;
  const uses = collectShorthandUses(template, scratchUses);
  const analysis: TemplateAnalysis = { reads: [], presenceChecks: [] };
  for (let i = 0; i < uses.length; i++) {
    const use = uses[i]!;
    const read: VariableRead = { path: use.path.split('.'), start: use.start, end: use.end, guarded: use.sigil === '@?', sigil: use.sigil };
    if (GLOBALS.has(read.path[0]!)) continue;
    // Most templates read one variable: an array of one, not one grown for more.
    if (analysis.reads.length === 0) analysis.reads = [read];
    else analysis.reads.push(read);
    if (use.sigil === '@?' && read.path.length === 1) analysis.presenceChecks.push({ root: read.path[0]!, start: use.start, end: use.end });
  }
  uses.length = 0;
  return analysis;
}

const MAX_KEPT = 1_000_000;

/**
 * Analyses of the templates that hold Jinja, by text and dialect: a distinct template is tokenized,
 * parsed and walked once, however many bundles and checks read it. Bounded in entries and characters.
 */
const analyses = lazy(() => new LRUCache<string, TemplateAnalysis>({ max: 20_000, maxSize: 8_000_000, sizeCalculation: (_a, key) => key.length }));

/**
 * Analyses of the templates without Jinja (most prompts), by text, kept from the second time a
 * text is analysed (see admission.ts: /validate of distinct bundles brings prompts never seen
 * again). Kept apart from `analyses`, whose keys carry the dialect.
 */
const shorthandAnalyses = lazy(() => new LRUCache<string, TemplateAnalysis>({ max: 20_000, maxSize: 4_000_000, sizeCalculation: (_a, key) => key.length + 1 }));
const shorthandSeen = new SecondSight(100_000);

/** Forgets every analysis (a from-scratch analysis follows). */
export function clearAnalysisCache(): void {
  analyses().clear();
  shorthandAnalyses().clear();
  shorthandSeen.clear();
}

function deepFreeze(analysis: TemplateAnalysis): void {
  for (const read of analysis.reads) Object.freeze(read);
  for (const check of analysis.presenceChecks) Object.freeze(check);
  if (analysis.fault) Object.freeze(analysis.fault);
  Object.freeze(analysis.reads);
  Object.freeze(analysis.presenceChecks);
  Object.freeze(analysis);
}

function analyzeJinja(template: string, options: AnalyzeOptions): TemplateAnalysis {
  const pre = options.shorthands ? preprocessShorthands(template) : undefined;
  const prefix = options.expression ? '{{ ' : '';
  const jinja = `${prefix}${pre ? pre.jinja : template}${options.expression ? ' }}' : ''}`;
  // Offset in `jinja` → offset in the template as written.
  const toTemplate = (offset: number): number => {
    const inner = Math.min(Math.max(offset - prefix.length, 0), (pre ? pre.jinja : template).length);
    return pre ? pre.sourceOffsets[inner]! : inner;
  };
  const analysis: TemplateAnalysis = { reads: [], presenceChecks: [] };
  let tokens: LocatedToken[];
  let raw: ReturnType<typeof tokenize>;
  try {
    raw = tokenize(jinja);
    tokens = locateTokens(jinja, raw);
  } catch (error) {
    const at = locateLexFault(jinja);
    analysis.fault = { message: faultMessage(error), start: toTemplate(at.start), end: toTemplate(at.end) };
    return analysis;
  }
  let program: Node;
  try {
    program = parse(raw) as unknown as Node;
  } catch (error) {
    const at = locateParseFault(tokens);
    analysis.fault = { message: faultMessage(error), start: toTemplate(at.start), end: toTemplate(at.end) };
    return analysis;
  }
  const walker = new ReadCollector(tokens, toTemplate, pre?.uses ?? []);
  walker.statements(program['body'] as Node[], new Set(), new Set());
  analysis.reads = walker.reads;
  analysis.presenceChecks = walker.checks;
  return analysis;
}

/** Reused by the fast path of analyzeTemplate (which is neither async nor reentrant). */
const scratchUses: ShorthandUse[] = [];

function hasBrace(text: string): boolean {
  return text.indexOf('{') >= 0 || text.indexOf('}') >= 0;
}

function faultMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim() || 'the template does not parse';
}

/** Gives each token its offsets by reading the source in step with the token stream. */
function locateTokens(source: string, raw: ReadonlyArray<{ value: string; type: string }>): LocatedToken[] {
  const out: LocatedToken[] = [];
  let cursor = 0;
  for (const t of raw) {
    let start: number;
    let end: number;
    if (t.type === 'Text') {
      start = source.indexOf(t.value, cursor);
      if (start < 0) start = cursor;
      end = start + t.value.length;
    } else if (t.type === 'Comment') {
      start = source.indexOf('{#', cursor);
      const close = source.indexOf('#}', Math.max(start, cursor));
      end = close < 0 ? source.length : close + 2;
    } else {
      while (cursor < source.length && /[\s\-+]/.test(source[cursor]!) && !source.startsWith(t.value, cursor)) cursor += 1;
      if (t.type === 'StringLiteral' && (source[cursor] === '"' || source[cursor] === "'")) {
        const quote = source[cursor]!;
        let i = cursor + 1;
        while (i < source.length && source[i] !== quote) i += source[i] === '\\' ? 2 : 1;
        start = cursor;
        end = Math.min(i + 1, source.length);
      } else if (source.startsWith(t.value, cursor)) {
        start = cursor;
        end = cursor + t.value.length;
      } else {
        const found = source.indexOf(t.value, cursor);
        start = found < 0 ? cursor : found;
        end = found < 0 ? cursor : found + t.value.length;
      }
    }
    out.push({ value: t.value, type: t.type, start, end });
    cursor = Math.max(cursor, end);
  }
  return out;
}

/** A lexing fault: the first unterminated tag, comment or string. */
function locateLexFault(source: string): { start: number; end: number } {
  const open = /\{\{|\{%|\{#/g;
  for (const m of source.matchAll(open)) {
    const close = m[0] === '{{' ? '}}' : m[0] === '{%' ? '%}' : '#}';
    const end = source.indexOf(close, m.index + 2);
    if (end < 0) return { start: m.index, end: source.length };
    const inner = source.slice(m.index + 2, end);
    const quotes = inner.replace(/\\./g, '').match(/["']/g);
    if (quotes && quotes.length % 2 === 1) return { start: m.index, end: end + 2 };
  }
  return { start: 0, end: source.length };
}

const BLOCK_OPENERS = new Set(['if', 'for', 'macro', 'call', 'filter', 'raw', 'generation']);

/**
 * A parse fault: first a tag that does not parse on its own (expressions), else the block
 * structure (an opener never closed, a closer never opened), else the whole template.
 */
function locateParseFault(tokens: LocatedToken[]): { start: number; end: number } {
  const tags: Array<{ open: number; close: number }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'OpenExpression' && t.type !== 'OpenStatement') continue;
    let j = i + 1;
    const closer = t.type === 'OpenExpression' ? 'CloseExpression' : 'CloseStatement';
    while (j < tokens.length && tokens[j]!.type !== closer) j++;
    if (j >= tokens.length) return { start: t.start, end: tokens[tokens.length - 1]!.end };
    tags.push({ open: i, close: j });
    i = j;
  }
  for (const tag of tags) {
    if (tokens[tag.open]!.type !== 'OpenExpression') continue;
    try {
      parse(tokens.slice(tag.open, tag.close + 1).map((t) => ({ value: t.value, type: t.type })) as never);
    } catch {
      return { start: tokens[tag.open]!.start, end: tokens[tag.close]!.end };
    }
  }
  const stack: Array<{ word: string; start: number; end: number }> = [];
  for (const tag of tags) {
    const first = tokens[tag.open]!;
    if (first.type !== 'OpenStatement') continue;
    const word = tokens[tag.open + 1]?.value ?? '';
    const range = { start: first.start, end: tokens[tag.close]!.end };
    const isSetBlock = word === 'set' && !tokens.slice(tag.open, tag.close).some((t) => t.type === 'Equals');
    if (BLOCK_OPENERS.has(word) || isSetBlock) stack.push({ word, ...range });
    else if (word.startsWith('end')) {
      const top = stack.pop();
      if (!top || `end${top.word}` !== word) return range;
    }
  }
  const unclosed = stack.pop();
  if (unclosed) return unclosed;
  const first = tags[0];
  return first ? { start: tokens[first.open]!.start, end: tokens[first.close]!.end } : { start: 0, end: tokens[tokens.length - 1]?.end ?? 0 };
}

/** Walks the AST in source order, pairing identifiers with their tokens. */
class ReadCollector {
  readonly reads: VariableRead[] = [];
  readonly checks: Array<{ root: string; start: number; end: number }> = [];
  private cursor = 0;

  constructor(
    private readonly tokens: readonly LocatedToken[],
    private readonly toTemplate: (offset: number) => number,
    private readonly uses: readonly ShorthandUse[],
  ) {}

  /** The next identifier token with this name (skipping keywords and punctuation). */
  private take(name: string): LocatedToken | undefined {
    for (let i = this.cursor; i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      if (t.type === 'Identifier' && t.value === name) {
        this.cursor = i + 1;
        return t;
      }
    }
    return undefined;
  }

  statements(nodes: readonly Node[], bound: ReadonlySet<string>, guards: ReadonlySet<string>): void {
    let scope = new Set(bound);
    for (const node of nodes) scope = this.statement(node, scope, guards);
  }

  /** Returns the names bound after the statement (`set` adds to the scope). */
  private statement(node: Node, bound: Set<string>, guards: ReadonlySet<string>): Set<string> {
    switch (node.type) {
      case 'If': {
        const before = this.reads.length;
        this.expr(node['test'] as Node, bound, guards);
        const tested = new Set(guards);
        // Reading a value in a test is the presence check itself, not an unguarded use.
        for (const r of this.reads.slice(before)) {
          r.guarded = true;
          tested.add(r.path[0]!);
          if (r.path.length === 1) this.checks.push({ root: r.path[0]!, start: r.start, end: r.end });
        }
        this.statements(node['body'] as Node[], bound, tested);
        this.statements(node['alternate'] as Node[], bound, guards);
        return bound;
      }
      case 'For': {
        const inner = new Set(bound);
        this.bind(node['loopvar'] as Node, inner);
        this.expr(node['iterable'] as Node, bound, guards);
        this.statements(node['body'] as Node[], inner, guards);
        this.statements((node['defaultBlock'] as Node[] | undefined) ?? [], bound, guards);
        return bound;
      }
      case 'Set': {
        const next = new Set(bound);
        const value = node['value'] as Node | null;
        this.bind(node['assignee'] as Node, next);
        if (value) this.expr(value, bound, guards);
        this.statements((node['body'] as Node[] | undefined) ?? [], bound, guards);
        return next;
      }
      case 'Macro': {
        const name = node['name'] as Node;
        this.take(String(name['value']));
        const inner = new Set(bound);
        inner.add(String(name['value']));
        for (const arg of (node['args'] as Node[]) ?? []) {
          if (arg.type === 'KeywordArgumentExpression') {
            this.bind(arg['key'] as Node, inner);
            this.expr(arg['value'] as Node, bound, guards);
          } else this.bind(arg, inner);
        }
        this.statements(node['body'] as Node[], inner, guards);
        const after = new Set(bound);
        after.add(String(name['value']));
        return after;
      }
      case 'CallStatement': {
        this.expr(node['call'] as Node, bound, guards);
        const inner = new Set(bound);
        for (const arg of (node['callerArgs'] as Node[] | null) ?? []) this.bind(arg, inner);
        this.statements(node['body'] as Node[], inner, guards);
        return bound;
      }
      case 'FilterStatement': {
        this.filterName(node['filter'] as Node, bound, guards);
        this.statements(node['body'] as Node[], bound, guards);
        return bound;
      }
      case 'Comment':
      case 'Break':
      case 'Continue':
        return bound;
      default:
        this.expr(node, bound, guards);
        return bound;
    }
  }

  private bind(target: Node, scope: Set<string>): void {
    if (target.type === 'Identifier') {
      this.take(String(target['value']));
      scope.add(String(target['value']));
    } else if (target.type === 'TupleLiteral' || target.type === 'ArrayLiteral') {
      for (const item of target['value'] as Node[]) this.bind(item, scope);
    } else if (target.type === 'MemberExpression') {
      // `{% set ns.total = ... %}`: writes into a namespace, reads its root.
      this.expr(target, scope, new Set());
    }
  }

  private filterName(filter: Node, bound: ReadonlySet<string>, guards: ReadonlySet<string>): void {
    if (filter.type === 'Identifier') this.take(String(filter['value']));
    else if (filter.type === 'CallExpression') {
      const callee = filter['callee'] as Node;
      if (callee.type === 'Identifier') this.take(String(callee['value']));
      for (const a of filter['args'] as Node[]) this.expr(a, bound, guards);
    }
  }

  /** The attribute chain of a member expression, when it is a plain `a.b.c` from an identifier. */
  private chain(node: Node): Node[] | undefined {
    if (node.type === 'Identifier') return [node];
    if (node.type === 'MemberExpression' && !node['computed']) {
      const base = this.chain(node['object'] as Node);
      const prop = node['property'] as Node;
      if (base && prop.type === 'Identifier') return [...base, prop];
    }
    return undefined;
  }

  expr(node: Node | undefined | null, bound: ReadonlySet<string>, guards: ReadonlySet<string>): void {
    if (!node) return;
    switch (node.type) {
      case 'Identifier':
      case 'MemberExpression': {
        const chain = this.chain(node);
        if (chain) {
          this.read(chain, bound, guards);
          return;
        }
        // Subscripts and computed access: the path stops at the object.
        this.expr(node['object'] as Node, bound, guards);
        const property = node['property'] as Node;
        if (node['computed']) this.expr(property, bound, guards);
        else if (property.type === 'Identifier') this.take(String(property['value']));
        return;
      }
      case 'CallExpression': {
        const callee = node['callee'] as Node;
        // A method call `a.b.c()` reads `a.b`; a plain call `f()` reads `f` (a macro or global).
        const chain = this.chain(callee);
        if (chain && chain.length > 1) this.read(chain.slice(0, -1), bound, guards, chain[chain.length - 1]);
        else this.expr(callee, bound, guards);
        for (const a of node['args'] as Node[]) this.expr(a, bound, guards);
        return;
      }
      case 'FilterExpression':
        this.expr(node['operand'] as Node, bound, guards);
        this.filterName(node['filter'] as Node, bound, guards);
        return;
      case 'TestExpression': {
        const before = this.reads.length;
        this.expr(node['operand'] as Node, bound, guards);
        const test = node['test'] as Node;
        this.take(String(test['value']));
        if (['defined', 'none', 'undefined'].includes(String(test['value']))) {
          for (const r of this.reads.slice(before)) if (r.path.length === 1) this.checks.push({ root: r.path[0]!, start: r.start, end: r.end });
        }
        return;
      }
      case 'Ternary': {
        // Source order: `true_expr if condition else false_expr`.
        const trueStart = this.reads.length;
        this.expr(node['trueExpr'] as Node, bound, guards);
        const trueReads = this.reads.splice(trueStart);
        const condStart = this.reads.length;
        this.expr(node['condition'] as Node, bound, guards);
        const tested = new Set(guards);
        for (const r of this.reads.slice(condStart)) {
          r.guarded = true;
          tested.add(r.path[0]!);
          if (r.path.length === 1) this.checks.push({ root: r.path[0]!, start: r.start, end: r.end });
        }
        for (const r of trueReads) this.reads.splice(condStart, 0, { ...r, guarded: r.guarded || tested.has(r.path[0]!) });
        this.expr(node['falseExpr'] as Node, bound, guards);
        return;
      }
      case 'SelectExpression':
        this.expr(node['lhs'] as Node, bound, guards);
        this.expr(node['test'] as Node, bound, guards);
        return;
      case 'BinaryExpression':
        this.expr(node['left'] as Node, bound, guards);
        this.expr(node['right'] as Node, bound, guards);
        return;
      case 'UnaryExpression':
        this.expr(node['argument'] as Node, bound, guards);
        return;
      case 'SliceExpression':
        this.expr(node['start'] as Node, bound, guards);
        this.expr(node['stop'] as Node, bound, guards);
        this.expr(node['step'] as Node, bound, guards);
        return;
      case 'KeywordArgumentExpression':
        this.take(String((node['key'] as Node)['value']));
        this.expr(node['value'] as Node, bound, guards);
        return;
      case 'SpreadExpression':
      case 'KeywordSpreadExpression':
        this.expr(node['argument'] as Node, bound, guards);
        return;
      case 'ArrayLiteral':
      case 'TupleLiteral':
        for (const item of node['value'] as Node[]) this.expr(item, bound, guards);
        return;
      case 'ObjectLiteral':
        for (const [k, v] of node['value'] as Map<Node, Node>) {
          this.expr(k, bound, guards);
          this.expr(v, bound, guards);
        }
        return;
      default:
        return; // literals
    }
  }

  private read(chain: Node[], bound: ReadonlySet<string>, guards: ReadonlySet<string>, method?: Node): void {
    const names = chain.map((n) => String(n['value']));
    const first = this.take(names[0]!);
    let last = first;
    for (const name of names.slice(1)) last = this.take(name) ?? last;
    if (method) this.take(String(method['value']));
    const root = names[0]!;
    if (bound.has(root) || GLOBALS.has(root) || !first) return;
    const start = this.toTemplate(first.start);
    // A read produced by a shorthand covers the shorthand as written.
    const use = this.uses.find((u) => u.start === start);
    const end = use ? use.end : this.toTemplate(last!.end);
    const read: VariableRead = { path: names, start, end, guarded: guards.has(root) || use?.sigil === '@?' };
    if (use) read.sigil = use.sigil;
    // `@?x` expands to `{% if x %}{{ x|tag }}`: one read, written once.
    if (use && this.reads.some((r) => r.start === start && r.end === end)) return;
    this.reads.push(read);
  }
}
