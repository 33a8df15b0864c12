// Rendering MTHDS templates: the shorthand preprocessor, then Jinja (@huggingface/jinja), with the
// Pipelex filters (`format`, `tag`, `with_images`, `escape_script_tag`, `markdown`) and the tag
// styles of language reference §6.4. The runner renders prompts, expressions and compose templates
// here; the checker parses with the same engine so that both agree on what a template means.
//
// The engine has no user-defined filters, so the parsed program is rewritten: each of our filters
// becomes a call of a function of the same meaning, and every printed expression goes through a
// print function (so that a content object prints as its text, and HTML templates escape).

import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';
import { LRUCache } from 'lru-cache';
import { lazy } from '../../util/lazy.js';
import { SecondSight } from './admission.js';
import { escapeMarkup } from '../../util/markup.js';
import type { TemplateCategory } from '../spec/values.js';
import { detached } from '../../util/detached.js';
import { preprocessShorthands } from './preprocess.js';

export type TagStyle = 'no_tag' | 'ticks' | 'xml' | 'square_brackets';
export type TextFormat = 'plain' | 'markdown' | 'html' | 'json';

export interface TemplatingStyle {
  tagStyle: TagStyle;
  textFormat: TextFormat;
}

export const TAG_STYLES: readonly TagStyle[] = ['no_tag', 'ticks', 'xml', 'square_brackets'];
export const TEXT_FORMATS: readonly TextFormat[] = ['plain', 'markdown', 'html', 'json'];

/**
 * The style a template renders with when its pipe declares none. Pipelex ships `xml` tags as its
 * single runtime default (CHANGELOG v0.46.0); prompts get Markdown renderings of structured values,
 * other templates plain text.
 */
export function defaultStyle(category: TemplateCategory): TemplatingStyle {
  if (category === 'llm_prompt' || category === 'img_gen_prompt') return { tagStyle: 'xml', textFormat: 'markdown' };
  if (category === 'html') return { tagStyle: 'xml', textFormat: 'html' };
  if (category === 'markdown') return { tagStyle: 'xml', textFormat: 'markdown' };
  return { tagStyle: 'xml', textFormat: 'plain' };
}

/** An image or document a template inserted as `[Image N]`; the caller attaches it to the call. */
export interface InsertedImage {
  index: number;
  url: string;
  content: Record<string, unknown>;
}

export interface RenderOptions {
  category: TemplateCategory;
  style?: TemplatingStyle;
  /** Apply `$var` / `@var` shorthands first (not for PipeCondition expressions). Default true. */
  shorthands?: boolean;
  /** Images already inserted by an earlier template of the same call (numbering continues). */
  images?: InsertedImage[];
  /** Work budget: loop iterations (each worth ITERATION_COST) plus output characters. Default 2,000,000. */
  budget?: number;
  /** Wall-clock limit of one render, in milliseconds. Default 2,000. */
  timeLimitMs?: number;
  /** Run every template through the interpreter, never the direct rendering (tests compare the two). */
  interpreter?: boolean;
}

export interface RenderResult {
  text: string;
  images: InsertedImage[];
}

/** A template that does not parse, or fails while rendering. The message never quotes values. */
export class TemplateError extends Error {
  constructor(
    readonly kind: 'parse' | 'render',
    message: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Metadata members Pipelex exposes on every stuff in a template; they never render as fields. */
export const CONCEPT_CODE_KEY = '_concept_code';
export const STUFF_NAME_KEY = '_stuff_name';

const FILTERS = new Set(['format', 'tag', 'with_images', 'escape_script_tag', 'markdown', 'safe']);
const FILTERS_BY_CATEGORY: Readonly<Record<TemplateCategory, ReadonlySet<string>>> = {
  basic: new Set(['format', 'tag']),
  expression: new Set(),
  html: new Set(['format', 'tag', 'escape_script_tag', 'markdown']),
  markdown: new Set(['format', 'tag', 'escape_script_tag']),
  mermaid: new Set(),
  llm_prompt: new Set(['format', 'tag', 'with_images']),
  img_gen_prompt: new Set(['format', 'tag', 'with_images']),
};
const STATEMENTS = new Set(['Program', 'If', 'For', 'Break', 'Continue', 'Set', 'Macro', 'Comment', 'CallStatement', 'FilterStatement']);
/** Marks a string as already HTML (from `safe`, `markdown`, `format` of Html): never escaped again. */
const SAFE_MARK = '\uE002';

type Node = { type: string; [k: string]: unknown };
type RuntimeValue = { type: string; value: unknown };

// The engine exports no value classes; one probe environment lends their constructors.
const probe = new Environment();
const FunctionValue = probe.set('__probe_fn', () => null).constructor as new (fn: (args: RuntimeValue[], scope: Environment) => RuntimeValue) => RuntimeValue;

function toRuntime(value: unknown): RuntimeValue {
  probe.variables.delete('__probe_value');
  return probe.set('__probe_value', value) as unknown as RuntimeValue;
}

/** A runtime value back to plain JavaScript. */
export function plainOf(rv: RuntimeValue | undefined): unknown {
  if (!rv) return undefined;
  switch (rv.type) {
    case 'ObjectValue':
    case 'KeywordArgumentsValue':
    case 'NamespaceValue': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of rv.value as Map<string, RuntimeValue>) out[k] = plainOf(v);
      return out;
    }
    case 'ArrayValue':
    case 'TupleValue':
      return (rv.value as RuntimeValue[]).map(plainOf);
    case 'NullValue':
      return null;
    case 'UndefinedValue':
    case 'FunctionValue':
      return undefined;
    default:
      return rv.value;
  }
}

// Compiled programs by source and dialect (category, shorthands): each distinct template is parsed
// and rewritten once, however many bundles and renders use it. Least recently used first out,
// bounded in entries and in characters, since one template may be as large as a bundle.
const programCache = lazy(() => new LRUCache<string, Compiled>({ max: 20_000, maxSize: 8_000_000, sizeCalculation: (_compiled, key) => key.length }));
/** Templates compiled once: the second compile of one is kept (admission.ts). */
const programsSeen = new SecondSight(100_000);

/** A parsed and rewritten template, with its direct plan when it has one (see `planOf`). */
interface Compiled {
  /** Parsed on first read for a plan read off the shorthands (planOfShorthands). */
  readonly program: Node;
  plan: Plan | undefined;
}

/** Forgets every compiled program and the root environment (a from-scratch render follows). */
export function clearRenderCaches(): void {
  programCache().clear();
  programsSeen.clear();
  root = undefined;
}

/** Parses a template (after the shorthands when asked); throws a TemplateError when it does not. */
export function parseTemplate(source: string, category: TemplateCategory, shorthands = true): Node {
  return compile(source, category, shorthands).program;
}

function compile(template: string, category: TemplateCategory, shorthands: boolean): Compiled {
  const dialect = `${category}\u0000${shorthands ? 1 : 0}\u0000`;
  const cached = programCache().get(`${dialect}${template}`);
  if (cached) return cached;
  const keep = programsSeen.admit(dialect, template);
  // What the cache keeps (the key, the program's strings) must not hold the bundle's text.
  const source = keep ? detached(template) : template;
  const key = `${category}\u0000${shorthands ? 1 : 0}\u0000${source}`;
  const jinja = shorthands ? preprocessShorthands(source.replace(/\r\n?/g, '\n')).jinja : source;
  const parseJinja = (): Node => {
    let program: Node;
    try {
      const trim = category === 'html' || category === 'markdown';
      program = parse(tokenize(jinja, { trim_blocks: trim, lstrip_blocks: false })) as unknown as Node;
    } catch (error) {
      throw new TemplateError('parse', `the template does not parse: ${describeEngineError(error)}`);
    }
    return rewrite(program, FILTERS_BY_CATEGORY[category] ?? new Set()) as Node;
  };
  // A prompt of text and shorthands, without Jinja of its own: its plan is read off the
  // preprocessor's output, and the engine parses it only if the interpreter is ever needed.
  const shorthandPlan = shorthands && !source.includes('{') ? planOfShorthands(jinja, category) : undefined;
  let compiled: Compiled;
  if (shorthandPlan) {
    let program: Node | undefined;
    compiled = {
      get program(): Node {
        return (program ??= parseJinja());
      },
      plan: shorthandPlan,
    };
  } else {
    const program = parseJinja();
    compiled = { program, plan: planOf(program) };
  }
  // A template past a quarter of the bound would evict most others: it is compiled each time.
  if (keep && key.length <= 2_000_000) programCache().set(key, compiled);
  return compiled;
}

function describeEngineError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Engine crashes on truncated input read as "Cannot read properties of undefined".
  if (/Cannot read properties of undefined|Unexpected end of input/.test(message)) return 'it ends before a tag or block is closed';
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

function filterName(filter: Node): string | undefined {
  if (filter.type === 'Identifier') return filter['value'] as string;
  if (filter.type === 'CallExpression') {
    const callee = filter['callee'] as Node;
    return callee.type === 'Identifier' ? (callee['value'] as string) : undefined;
  }
  return undefined;
}

function call(name: string, args: unknown[]): Node {
  return { type: 'CallExpression', callee: { type: 'Identifier', value: name }, args };
}

function rewriteBody(body: unknown[], allowed: ReadonlySet<string>): unknown[] {
  return body.map((statement) => {
    const node = rewrite(statement, allowed) as Node;
    // Raw template text is a StringLiteral too: printing it untouched keeps HTML templates intact.
    if (!node || STATEMENTS.has(node.type) || node.type === 'StringLiteral') return node;
    return call('__mthds_print', [node]);
  });
}

function rewrite(node: unknown, allowed: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, allowed));
  if (node === null || typeof node !== 'object') return node;
  const n = node as Node;
  const out: Node = { ...n };
  for (const [key, value] of Object.entries(n)) {
    if (key === 'body' || key === 'alternate' || key === 'defaultBlock') out[key] = Array.isArray(value) ? rewriteBody(value, allowed) : rewrite(value, allowed);
    else out[key] = rewrite(value, allowed);
  }
  if (out.type === 'FilterExpression') {
    const filter = out['filter'] as Node;
    const name = filterName(filter);
    if (name !== undefined && FILTERS.has(name)) {
      // A Pipelex filter the category does not register fails like an unknown filter would.
      const fn = name === 'safe' || allowed.has(name) ? `__mthds_filter_${name}` : '__mthds_unknown_filter';
      const args = filter.type === 'CallExpression' ? (filter['args'] as unknown[]) : [];
      return call(fn, [out['operand'], ...(fn === '__mthds_unknown_filter' ? [{ type: 'StringLiteral', value: name }] : args)]);
    }
  }
  if (out.type === 'For') out['iterable'] = call('__mthds_iterate', [out['iterable']]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rendering values as text

interface RenderState {
  style: TemplatingStyle;
  images: InsertedImage[];
  budget: number;
  /** performance.now() past which the render stops. */
  deadline: number;
  category: TemplateCategory;
}

/**
 * What one loop iteration costs against the budget, in output characters: an iteration costs the
 * interpreter about as much as a few dozen characters, and loops are charged when they start, so
 * nested loops must not be cheap (1,000 x 1,000 iterations would otherwise fit and take seconds).
 */
const ITERATION_COST = 16;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function conceptCodeOf(v: Record<string, unknown>): string | undefined {
  const c = v[CONCEPT_CODE_KEY];
  if (typeof c !== 'string') return undefined;
  return c.slice(c.lastIndexOf('.') + 1);
}

function isImage(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && conceptCodeOf(v) === 'Image' && typeof v['url'] === 'string';
}

function publicEntries(v: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(v).filter(([k, value]) => !k.startsWith('_') && value !== undefined && value !== null);
}

function insertImage(state: RenderState, image: Record<string, unknown>): string {
  const url = String(image['url']);
  const existing = state.images.find((i) => i.url === url);
  if (existing) return `[Image ${existing.index}]`;
  const index = state.images.length + 1;
  state.images.push({ index, url, content: image });
  return `[Image ${index}]`;
}

/** The text a single-field content stands for, when it is one (Text, Number, Html...). */
function leafText(v: Record<string, unknown>, format: TextFormat): string | undefined {
  const entries = publicEntries(v);
  if (typeof v['text'] === 'string' && entries.length === 1) return format === 'html' ? escapeMarkup(v['text']) : v['text'];
  if (typeof v['inner_html'] === 'string') return format === 'html' ? SAFE_MARK + v['inner_html'] : v['inner_html'];
  if (typeof v['number'] === 'number' && entries.length === 1) return String(v['number']);
  if (typeof v['yes_no'] === 'boolean' && entries.every(([k]) => k === 'yes_no' || k === 'probability')) return v['yes_no'] ? 'yes' : 'no';
  if (typeof v['time'] === 'string' && entries.length === 1) return v['time'];
  if (typeof v['date'] === 'string' && entries.every(([k]) => k === 'date' || k === 'time')) return typeof v['time'] === 'string' ? `${v['date']} ${v['time']}` : v['date'];
  return undefined;
}

function scalarText(v: unknown, format: TextFormat): string {
  const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : JSON.stringify(v) ?? '';
  return format === 'html' ? escapeMarkup(s) : s;
}

function jsonOfPublic(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonOfPublic);
  if (isRecord(v)) return Object.fromEntries(publicEntries(v).map(([k, x]) => [k, jsonOfPublic(x)]));
  return v;
}

/**
 * A value as text in a text format: a content with one meaningful field renders as that field, a
 * structured one as labelled fields (plain, Markdown, an HTML list) or JSON, a list item by item.
 * Images become `[Image N]` placeholders at the top level, or everywhere with `deepImages`.
 */
export function renderValue(value: unknown, format: TextFormat, state: { images: InsertedImage[] }, deepImages = false, depth = 0): string {
  const st = state as RenderState;
  if (value === undefined || value === null) return '';
  if (format === 'json') return JSON.stringify(jsonOfPublic(value), null, 2) ?? '';
  if (Array.isArray(value)) {
    const parts = value.map((item) => renderValue(item, format, st, deepImages, depth + 1));
    if (format === 'html') return `${SAFE_MARK}<ul>${parts.map((p) => `<li>${unmark(p)}</li>`).join('')}</ul>`;
    if (format === 'markdown' && depth > 0) return parts.map((p) => `- ${p}`).join('\n');
    return parts.join(format === 'markdown' ? '\n\n' : '\n');
  }
  if (!isRecord(value)) return scalarText(value, format);
  if (isImage(value) && (depth === 0 || deepImages)) return insertImage(st, value);
  if (isImage(value)) return scalarText(value['caption'] ?? value['url'], format);
  const leaf = leafText(value, format);
  if (leaf !== undefined) return leaf;
  const entries = publicEntries(value);
  const indent = '  '.repeat(depth);
  switch (format) {
    case 'html':
      return `${SAFE_MARK}<dl>${entries.map(([k, v]) => `<dt>${escapeMarkup(k)}</dt><dd>${unmark(renderValue(v, format, st, deepImages, depth + 1))}</dd>`).join('')}</dl>`;
    case 'markdown':
      return entries
        .map(([k, v]) => {
          const inner = renderValue(v, format, st, deepImages, depth + 1);
          return inner.includes('\n') ? `${indent}- **${k}**:\n${inner.split('\n').map((l) => `${indent}  ${l}`).join('\n')}` : `${indent}- **${k}**: ${inner}`;
        })
        .join('\n');
    default:
      return entries
        .map(([k, v]) => {
          const inner = renderValue(v, format, st, deepImages, depth + 1);
          return inner.includes('\n') ? `${indent}${k}:\n${inner.split('\n').map((l) => `${indent}  ${l}`).join('\n')}` : `${indent}${k}: ${inner}`;
        })
        .join('\n');
  }
}

function unmark(s: string): string {
  return s.includes(SAFE_MARK) ? s.replaceAll(SAFE_MARK, '') : s;
}

/** Wraps a rendered value per the tag style (language reference §6.4). */
export function applyTag(text: string, style: TagStyle, name?: string): string {
  switch (style) {
    case 'no_tag':
      return text;
    case 'ticks':
      return name ? `${name}: \`\`\`\n${text}\n\`\`\`` : `\`\`\`\n${text}\n\`\`\``;
    case 'xml':
      return `<${name ?? 'data'}>\n${text}\n</${name ?? 'data'}>`;
    case 'square_brackets':
      return `[${name ?? 'data'}]\n${text}\n[/${name ?? 'data'}]`;
  }
}

/** Minimal Markdown to HTML: raw HTML escaped, only links with a scheme become anchors. */
export function markdownToHtml(markdown: string): string {
  const inline = (s: string): string =>
    escapeMarkup(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>')
      .replace(/\[([^\]]+)\]\(([a-zA-Z][a-zA-Z0-9+.-]*:[^)\s]+)\)/g, '<a href="$2">$1</a>');
  const out: string[] = [];
  let list: string[] | undefined;
  let para: string[] = [];
  const flush = (): void => {
    if (para.length > 0) out.push(`<p>${para.map(inline).join(' ')}</p>`);
    para = [];
    if (list) out.push(`<ul>${list.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
    list = undefined;
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      out.push(`<h${heading[1]!.length}>${inline(heading[2]!)}</h${heading[1]!.length}>`);
    } else if (item) {
      if (para.length > 0) {
        out.push(`<p>${para.map(inline).join(' ')}</p>`);
        para = [];
      }
      (list ??= []).push(item[1]!);
    } else if (line.trim() === '') flush();
    else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join('\n');
}

function spend(state: RenderState, amount: number): void {
  state.budget -= amount;
  if (state.budget < 0) throw new TemplateError('render', 'the template exceeds the render budget (too many loop iterations or too much output)');
  // The budget bounds the work; the clock bounds what the budget cannot see (costly bodies).
  if (performance.now() >= state.deadline) throw new TemplateError('render', 'the template exceeds the render budget (rendering took too long)');
}

function textFormatArg(args: RuntimeValue[], state: RenderState, name: string): TextFormat {
  const kw = args.find((a) => a.type === 'KeywordArgumentsValue');
  const positional = args.filter((a) => a.type !== 'KeywordArgumentsValue')[0];
  const raw = positional ? plainOf(positional) : kw ? (plainOf(kw) as Record<string, unknown>)[name] : undefined;
  if (raw === undefined || raw === null) return state.style.textFormat;
  if (typeof raw === 'string' && (TEXT_FORMATS as readonly string[]).includes(raw)) return raw as TextFormat;
  throw new TemplateError('render', `unknown text format for the format filter (expected one of ${TEXT_FORMATS.join(', ')})`);
}

/**
 * The variables of one render: the context's names, converted by toRuntime when the interpreter
 * first looks them up (`has` then `get`). Everything else (constants, range, the print and filter
 * functions) lives in the shared root environment, the parent of every render's.
 */
class LazyVariables extends Map<string, unknown> {
  private readonly pending = new Map<string, unknown>();

  constructor(context: Record<string, unknown>) {
    super();
    // The functions of the root always won over a context name of theirs; constants and range did not.
    for (const name of Object.keys(context)) if (!name.startsWith('__mthds_')) this.pending.set(name, context[name]);
  }

  override has(name: string): boolean {
    return super.has(name) || this.pending.has(name);
  }

  override get(name: string): unknown {
    if (!super.has(name) && this.pending.has(name)) {
      super.set(name, toRuntime(this.pending.get(name)));
      this.pending.delete(name);
    }
    return super.get(name);
  }

  override set(name: string, value: unknown): this {
    this.pending?.delete(name);
    return super.set(name, value);
  }
}

/**
 * The render in progress. Rendering is synchronous, so the functions of the shared root read the
 * state of the render that calls them from here (saved and restored around each render).
 */
let current: RenderState | undefined;

function active(): RenderState {
  if (!current) throw new TemplateError('render', 'a template function was called outside a render');
  return current;
}

/**
 * The root environment every render's environment descends from, built once: a new environment
 * with its built-ins and a dozen function values for every render cost more than most renders.
 * Nothing renders into it (a template's `set` lands in its own environment).
 */
let root: Environment | undefined;

function rootEnvironment(): Environment {
  if (root) return root;
  const env = new Environment();
  const define = (name: string, value: unknown): void => {
    env.setVariable(name, toRuntime(value) as never);
  };
  for (const [name, value] of [['true', true], ['false', false], ['none', null], ['True', true], ['False', false], ['None', null]] as const) define(name, value);
  // range is capped by the budget through __mthds_iterate; a huge range still allocates, so bound it.
  define('range', (...args: number[]) => {
    const [start, stop, step] = args.length === 1 ? [0, args[0]!, 1] : [args[0]!, args[1]!, args[2] ?? 1];
    if (step === 0) throw new TemplateError('render', 'range() step must not be zero');
    const n = Math.max(0, Math.ceil((stop - start) / step));
    spend(active(), n * ITERATION_COST);
    return Array.from({ length: n }, (_, i) => start + i * step);
  });
  const fn = (name: string, impl: (args: RuntimeValue[], state: RenderState) => unknown): void => {
    env.variables.set(name, new FunctionValue((args) => toRuntime(impl(args, active())) as never) as never);
  };
  const fnRaw = (name: string, impl: (args: RuntimeValue[], state: RenderState) => RuntimeValue): void => {
    env.variables.set(name, new FunctionValue((args) => impl(args, active()) as never) as never);
  };
  fn('__mthds_print', (args, state) => {
    const html = state.category === 'html';
    const rv = args[0];
    const value = plainOf(rv);
    if (rv?.type === 'StringValue') {
      const s = value as string;
      spend(state, s.length);
      return html && !s.startsWith(SAFE_MARK) ? escapeMarkup(s) : s;
    }
    const out = renderValue(value, html ? 'html' : 'plain', state);
    spend(state, out.length);
    return out;
  });
  fnRaw('__mthds_iterate', (args, state) => {
    const rv = args[0]!;
    const size = Array.isArray(rv.value) ? rv.value.length : rv.value instanceof Map ? rv.value.size : typeof rv.value === 'string' ? rv.value.length : 1;
    spend(state, (size + 1) * ITERATION_COST);
    return rv;
  });
  fn('__mthds_filter_format', (args, state) => {
    const value = plainOf(args[0]);
    const out = renderValue(value, textFormatArg(args.slice(1), state, 'text_format'), state);
    spend(state, out.length);
    return out;
  });
  fn('__mthds_filter_with_images', (args, state) => renderValue(plainOf(args[0]), state.style.textFormat, state, true));
  fn('__mthds_filter_tag', (args, state) => {
    if (!args[0] || args[0].type === 'UndefinedValue') throw new TemplateError('render', 'the tag filter was applied to an undefined value');
    const rest = args.slice(1);
    const kw = rest.find((a) => a.type === 'KeywordArgumentsValue');
    const positional = rest.filter((a) => a.type !== 'KeywordArgumentsValue')[0];
    const rawName = positional ? plainOf(positional) : kw ? (plainOf(kw) as Record<string, unknown>)['tag_name'] : undefined;
    const text = renderValue(plainOf(args[0]), state.style.textFormat, state);
    const out = applyTag(unmark(text), state.style.tagStyle, typeof rawName === 'string' && rawName !== '' ? rawName : undefined);
    spend(state, out.length);
    return state.category === 'html' ? SAFE_MARK + out : out;
  });
  fn('__mthds_filter_escape_script_tag', (args, state) => {
    const value = plainOf(args[0]);
    return (typeof value === 'string' ? unmark(value) : renderValue(value, 'plain', state)).replace(/</g, '\\u003c');
  });
  fn('__mthds_filter_markdown', (args, state) => {
    const value = plainOf(args[0]);
    return SAFE_MARK + markdownToHtml(typeof value === 'string' ? unmark(value) : renderValue(value, 'plain', state));
  });
  fn('__mthds_filter_safe', (args, state) => {
    const value = plainOf(args[0]);
    return SAFE_MARK + (typeof value === 'string' ? unmark(value) : renderValue(value, 'plain', state));
  });
  fn('__mthds_unknown_filter', (args, state) => {
    throw new TemplateError('render', `the filter ${String(plainOf(args[1]))} is not available in ${state.category} templates`);
  });
  root = env;
  return env;
}

/** The environment of one render: the context over the shared root. */
function environmentFor(context: Record<string, unknown>): Environment {
  const env = new Environment(rootEnvironment());
  // The context is converted to runtime values on first use: a template reads a few names of a
  // working memory that may hold many large stuffs.
  (env as unknown as { variables: Map<string, unknown> }).variables = new LazyVariables(context);
  return env;
}

// ---------------------------------------------------------------------------------------------
// Direct rendering of the common templates
//
// Most prompts are text with `$x` and `@x` inserts: raw text, and prints of a variable, bare or
// through `tag`, `format` or `with_images` with literal arguments. Such a program is rendered
// here without the interpreter (its environment, runtime values and function values cost more
// than the rendering itself), step for step as the interpreter runs the root functions: the same
// values (a variable is copied as the engine's round trip to runtime values and back copies it),
// the same texts, the same budget spent, the same errors. Anything else goes to the interpreter.

type Step = string | { fn: 'print' | 'tag' | 'format' | 'with_images'; name: string; arg?: string };
type Plan = readonly Step[];

/** A variable looked up in the context alone: not a name the root environment holds (constants, range, namespace, our functions). */
function plainVariable(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (n?.type !== 'Identifier') return undefined;
  const name = n['value'];
  return typeof name === 'string' && !rootEnvironment().variables.has(name) && !name.startsWith('__mthds_') ? name : undefined;
}

function calleeName(node: Node): string | undefined {
  const callee = node['callee'] as Node | undefined;
  return node.type === 'CallExpression' && callee?.type === 'Identifier' ? (callee['value'] as string) : undefined;
}

/** The direct plan of a rewritten program, or undefined when it needs the interpreter. */
function planOf(program: Node): Plan | undefined {
  if (program.type !== 'Program' || !Array.isArray(program['body'])) return undefined;
  const plan: Step[] = [];
  for (const statement of program['body'] as Node[]) {
    if (statement?.type === 'StringLiteral' && typeof statement['value'] === 'string') {
      plan.push(statement['value']);
      continue;
    }
    if (calleeName(statement) !== '__mthds_print') return undefined;
    const printed = statement['args'] as Node[];
    if (printed.length !== 1) return undefined;
    const inner = printed[0]!;
    const bare = plainVariable(inner);
    if (bare !== undefined) {
      plan.push({ fn: 'print', name: bare });
      continue;
    }
    const fn = calleeName(inner);
    const args = inner['args'] as Node[] | undefined;
    const name = args ? plainVariable(args[0]) : undefined;
    if (!args || name === undefined || args.length > 2) return undefined;
    const literal = args[1];
    if (literal !== undefined && (literal.type !== 'StringLiteral' || typeof literal['value'] !== 'string')) return undefined;
    const arg = literal?.['value'] as string | undefined;
    if (fn === '__mthds_filter_tag') plan.push(arg === undefined ? { fn: 'tag', name } : { fn: 'tag', name, arg });
    else if (fn === '__mthds_filter_format') plan.push(arg === undefined ? { fn: 'format', name } : { fn: 'format', name, arg });
    else if (fn === '__mthds_filter_with_images' && arg === undefined) plan.push({ fn: 'with_images', name });
    else return undefined;
  }
  return plan;
}

/** Words the engine's expression parser reads as operators, and statement words: never a plain variable here. */
const JINJA_WORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else', 'elif', 'endif', 'for', 'endfor', 'set', 'endset', 'macro', 'endmacro', 'call', 'endcall', 'filter', 'endfilter', 'raw', 'endraw', 'break', 'continue', 'generation', 'endgeneration']);

// What the shorthand preprocessor writes for `@x` and `$x` with a one-segment path.
const SHORTHAND_TAG = /\{\{ ([A-Za-z_][A-Za-z0-9_]*)\|(?:tag\("([A-Za-z_][A-Za-z0-9_]*)"\)|format\(\)) \}\}/g;

/**
 * The plan of the engine's program for `jinja`, the preprocessor's output for a template without
 * braces of its own, read without parsing: raw text (as the tokenizer reads text outside tags,
 * verbatim, after dropping one final newline) and the shorthands' tags. Undefined for anything
 * else (`@?x`, dotted paths, names the engine reads otherwise, filters the category lacks).
 */
function planOfShorthands(jinja: string, category: TemplateCategory): Plan | undefined {
  const src = jinja.endsWith('\n') ? jinja.slice(0, -1) : jinja;
  const allowed = FILTERS_BY_CATEGORY[category];
  const plan: Step[] = [];
  const text = (raw: string): boolean => {
    if (raw.includes('{')) return false;
    if (raw !== '') plan.push(raw);
    return true;
  };
  let last = 0;
  SHORTHAND_TAG.lastIndex = 0;
  for (let m = SHORTHAND_TAG.exec(src); m !== null; m = SHORTHAND_TAG.exec(src)) {
    const name = m[1]!;
    const tagName = m[2];
    if (!text(src.slice(last, m.index))) return undefined;
    if (tagName !== undefined && tagName !== name) return undefined;
    if (JINJA_WORDS.has(name) || plainVariable({ type: 'Identifier', value: name }) === undefined) return undefined;
    if (!allowed?.has(tagName !== undefined ? 'tag' : 'format')) return undefined;
    plan.push(tagName !== undefined ? { fn: 'tag', name, arg: tagName } : { fn: 'format', name });
    last = m.index + m[0].length;
  }
  return text(src.slice(last)) ? plan : undefined;
}

/** A value the interpreter cannot hold (it throws converting it): the render goes to the interpreter. */
const NOT_DIRECT = Symbol('not direct');

/**
 * A context value as the engine gives it back to the root functions: converted to runtime values
 * and back (plainOf), i.e. a copy where functions become undefined and members are assigned.
 */
function engineCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'function':
      return undefined;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map(engineCopy);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = engineCopy(v);
      return out;
    }
    default:
      throw NOT_DIRECT;
  }
}

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;

/** The text of a direct plan, as the interpreter would produce it (before the final unmark). */
function renderPlan(plan: Plan, context: Record<string, unknown>, state: RenderState): string {
  const html = state.category === 'html';
  let text = '';
  for (const step of plan) {
    if (typeof step === 'string') {
      text += step;
      continue;
    }
    // The render's variables are the context's own enumerable members (LazyVariables).
    const raw = propertyIsEnumerable.call(context, step.name) ? context[step.name] : undefined;
    const value = engineCopy(raw);
    let printed: unknown = value;
    // The filter's own result (a string) is what __mthds_print prints.
    if (step.fn === 'tag') {
      if (raw === undefined) throw new TemplateError('render', 'the tag filter was applied to an undefined value');
      const out = applyTag(unmark(renderValue(value, state.style.textFormat, state)), state.style.tagStyle, step.arg !== undefined && step.arg !== '' ? step.arg : undefined);
      spend(state, out.length);
      printed = html ? SAFE_MARK + out : out;
    } else if (step.fn === 'format') {
      const format = step.arg === undefined ? state.style.textFormat : step.arg;
      if (!(TEXT_FORMATS as readonly string[]).includes(format)) throw new TemplateError('render', `unknown text format for the format filter (expected one of ${TEXT_FORMATS.join(', ')})`);
      const out = renderValue(value, format as TextFormat, state);
      spend(state, out.length);
      printed = out;
    } else if (step.fn === 'with_images') printed = renderValue(value, state.style.textFormat, state, true);
    if (typeof printed === 'string') {
      spend(state, printed.length);
      text += html && !printed.startsWith(SAFE_MARK) ? escapeMarkup(printed) : printed;
    } else {
      const out = renderValue(printed, html ? 'html' : 'plain', state);
      spend(state, out.length);
      text += out;
    }
  }
  return text;
}

/**
 * Renders a template against a context of plain values (stuff contents, lists as arrays). Throws a
 * TemplateError when the template does not parse or fails to render.
 */
export function renderTemplate(source: string, context: Record<string, unknown>, options: RenderOptions): RenderResult {
  const compiled = compile(source, options.category, options.shorthands ?? true);
  const plan = compiled.plan;
  const state: RenderState = {
    style: options.style ?? defaultStyle(options.category),
    images: options.images ? [...options.images] : [],
    budget: options.budget ?? 2_000_000,
    deadline: performance.now() + (options.timeLimitMs ?? 2_000),
    category: options.category,
  };
  let text: string | undefined;
  const outer = current;
  current = state;
  try {
    if (plan && options.interpreter !== true) {
      try {
        text = renderPlan(plan, context, state);
      } catch (error) {
        if (error !== NOT_DIRECT) throw error;
        // The interpreter starts again from nothing spent and nothing inserted.
        state.images = options.images ? [...options.images] : [];
        state.budget = options.budget ?? 2_000_000;
      }
    }
    if (text === undefined) {
      const result = new Interpreter(environmentFor(context)).run(compiled.program as never) as unknown as RuntimeValue;
      text = String(result.value);
    }
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    throw new TemplateError('render', (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200));
  } finally {
    current = outer;
  }
  return { text: unmark(text), images: state.images };
}

/** Renders a PipeCondition expression: wrapped in `{{ }}`, no shorthands, category expression. */
export function renderExpression(expression: string, context: Record<string, unknown>): string {
  return renderTemplate(`{{ ${expression} }}`, context, { category: 'expression', shorthands: false }).text;
}
