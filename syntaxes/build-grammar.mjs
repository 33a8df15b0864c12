#!/usr/bin/env node
// Builds syntaxes/mthds.tmLanguage.json (scope source.mthds) from the language spec.
//
//   node syntaxes/build-grammar.mjs          writes the grammar
//   node syntaxes/build-grammar.mjs --check  exits 1 when the committed grammar is not what the spec gives
//
// The pipe type names, the native concepts, the outcome keywords and the keys whose values are
// templates, expressions, concept, pipe or model references all come from
// server/src/language/spec (bundled on the fly with esbuild), so the grammar cannot drift from it.
// Everything else (the TOML base, Jinja, the shorthands) is written here.

import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const OUT = join(here, 'mthds.tmLanguage.json');

// ---------------------------------------------------------------------------------------------
// The spec

async function loadSpec() {
  const result = await build({
    entryPoints: [join(root, 'server/src/language/spec/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** Every (key, value spec) pair reachable from a list of field specs, retired keys left out. */
function walkFields(fields, visit) {
  const walkValue = (value) => {
    switch (value.kind) {
      case 'table':
        walkFields(value.fields, visit);
        break;
      case 'map':
      case 'array':
        walkValue(value.kind === 'map' ? value.values : value.items);
        break;
      case 'oneOf':
        value.options.forEach(walkValue);
        break;
      default:
        break;
    }
  };
  for (const field of fields) {
    if (field.retired) continue;
    visit(field.name, field.value);
    walkValue(field.value);
  }
}

/** Keys by the role of their string value (a key whose value may be a string of that role). */
function keysByRole(fields) {
  const roles = new Map();
  const add = (role, name, value) => {
    if (!roles.has(role)) roles.set(role, new Map());
    const prev = roles.get(role).get(name);
    roles.get(role).set(name, { shorthands: (prev?.shorthands ?? false) || value.shorthands === true });
  };
  const visitString = (name, value) => {
    if (value.kind === 'string' && value.role) add(value.role, name, value);
    if (value.kind === 'oneOf') value.options.forEach((o) => visitString(name, o));
    if (value.kind === 'map') visitString(`${name}{}`, value.values);
    if (value.kind === 'custom') add(`custom:${value.name}`, name, value);
  };
  walkFields(fields, visitString);
  return roles;
}

function keysOf(roles, role) {
  return [...(roles.get(role)?.keys() ?? [])].sort();
}

function need(list, what) {
  if (list.length === 0) throw new Error(`build-grammar: the spec gave no ${what}`);
  return list;
}

// ---------------------------------------------------------------------------------------------
// Regex pieces

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An alternation, longest first. */
const alt = (words) => [...new Set(words)].sort((a, b) => b.length - a.length || a.localeCompare(b)).map(escapeRe).join('|');

const WS = '[ \\t]*';
const BARE = '[A-Za-z0-9_-]+';
const KEYSEG = `(?:${BARE}|"(?:[^"\\\\]|\\\\.)*"|'[^']*')`;
const KEYPATH = `${KEYSEG}(?:${WS}\\.${WS}${KEYSEG})*`;
/** Where a key may start: a line start, or after `{` / `,` of an inline table. */
const ENTRY_START = `(?:^|(?<=[{,]))${WS}`;
const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const PATH = `${IDENT}(?:\\.${IDENT})*`;
/** The start of a header line: ends every section. */
const HEADER_AHEAD = `(?=^${WS}\\[)`;
/** A line that can only be a header (never an array value): ends an unterminated array. */
const ARRAY_RECOVER = `(?=^${WS}\\[\\[?${WS}(?!(?:true|false|inf|nan)${WS}\\])[A-Za-z_][A-Za-z0-9_-]*${WS}(?:\\.|\\]\\]?${WS}(?:#.*)?$))`;

// The four TOML string kinds. `term` is a lookahead body for "the string ends here".
const KINDS = {
  mlbasic: {
    begin: '"""',
    end: '("{0,2})(""")(?!")',
    name: 'string.quoted.triple.basic.block.toml',
    term: '"""',
    escapes: true,
    multiline: true,
    // After `$name` and blanks, what makes the preprocessor leave it alone: ( { " '.
    dollarStop: `[({']|"(?!"")|\\\\"`,
  },
  mllit: {
    begin: "'''",
    end: "('{0,2})(''')(?!')",
    name: 'string.quoted.triple.literal.block.toml',
    term: "'''",
    escapes: false,
    multiline: true,
    dollarStop: `[({"]|'(?!'')`,
  },
  basic: {
    begin: '"',
    end: '(")|$',
    name: 'string.quoted.double.basic.toml',
    term: '"|$',
    escapes: true,
    multiline: false,
    dollarStop: `[({']|\\\\"`,
  },
  lit: {
    begin: "'",
    end: "(')|$",
    name: 'string.quoted.single.literal.toml',
    term: "'|$",
    escapes: false,
    multiline: false,
    dollarStop: `[({"]`,
  },
};
const KIND_NAMES = Object.keys(KINDS);
const SINGLE_LINE_KINDS = ['basic', 'lit'];

// ---------------------------------------------------------------------------------------------
// Grammar

function grammar(spec) {
  const { PIPE_TYPES, RETIRED_PIPE_TYPES, NATIVE_CONCEPTS, SPECIAL_OUTCOMES, BUNDLE_FIELDS, CONCEPT_FIELDS, STRUCTURE_FIELD_FIELDS, SIGNATURE_FIELDS } = spec;

  const pipeTypeNames = need(PIPE_TYPES.map((p) => p.name), 'pipe types');
  const retiredPipeTypes = Object.keys(RETIRED_PIPE_TYPES).filter((n) => !pipeTypeNames.includes(n));
  const natives = need(NATIVE_CONCEPTS.map((c) => c.code), 'native concepts');
  const outcomes = need([...SPECIAL_OUTCOMES], 'special outcomes');

  const pipeRoles = keysByRole([...PIPE_TYPES.flatMap((p) => p.fields), ...SIGNATURE_FIELDS]);
  const bundleRoles = keysByRole(BUNDLE_FIELDS);
  const conceptRoles = keysByRole(CONCEPT_FIELDS);
  const fieldRoles = keysByRole(STRUCTURE_FIELD_FIELDS);

  // Pipe sections.
  const templateKeys = need(keysOf(pipeRoles, 'template'), 'template keys');
  const shorthandTemplateKeys = templateKeys.filter((k) => pipeRoles.get('template').get(k).shorthands);
  const rawTemplateKeys = templateKeys.filter((k) => !shorthandTemplateKeys.includes(k));
  const expressionKeys = need(keysOf(pipeRoles, 'expression'), 'expression keys');
  const modelKeys = need(keysOf(pipeRoles, 'model-ref'), 'model keys');
  const pipeTypeKeys = need(keysOf(pipeRoles, 'pipe-type'), 'pipe type keys');
  // `signature_for` holds a pipe type name (an enum of the spec's pipe types).
  const signatureKeys = SIGNATURE_FIELDS.filter((f) => f.value.kind === 'string' && f.value.enum?.length && f.value.enum.every((v) => pipeTypeNames.includes(v))).map((f) => f.name);
  const ioKeys = need([...keysOf(pipeRoles, 'io-ref'), ...keysOf(pipeRoles, 'concept-ref')], 'concept reference keys');
  const inputKeys = need(keysOf(pipeRoles, 'custom:input-slot'), 'input keys');
  // Keys holding a pipe reference; where a PipeCondition outcome may also be `fail` / `continue`.
  const pipeRefKeys = need(keysOf(pipeRoles, 'pipe-ref'), 'pipe reference keys');
  const outcomeMapKeys = need(pipeRefKeys.filter((k) => k.endsWith('{}')).map((k) => k.slice(0, -2)), 'outcome maps');
  // A pipe type with a map of pipe references (PipeCondition's outcomes) takes `fail` / `continue`
  // in its pipe reference fields too (default_outcome).
  const isPipeRef = (v) => v.kind === 'string' && v.role === 'pipe-ref';
  const outcomeKeys = need(
    PIPE_TYPES.filter((p) => p.fields.some((f) => !f.retired && f.value.kind === 'map' && isPipeRef(f.value.values)))
      .flatMap((p) => p.fields.filter((f) => !f.retired && isPipeRef(f.value)).map((f) => f.name)),
    'outcome keys',
  );
  const plainPipeRefKeys = pipeRefKeys.filter((k) => !k.endsWith('{}') && !outcomeKeys.includes(k));

  // Bundle level.
  const bundleTemplateKeys = keysOf(bundleRoles, 'template');
  const bundlePipeKeys = [...keysOf(bundleRoles, 'pipe-code'), ...keysOf(bundleRoles, 'pipe-ref')];
  const domainKeys = keysOf(bundleRoles, 'domain');

  // Concepts.
  const conceptRefKeys = need(keysOf(conceptRoles, 'concept-ref'), 'concept keys');
  const fieldConceptKeys = need(keysOf(fieldRoles, 'concept-ref'), 'structure field concept keys');
  const structureKeys = need(keysOf(conceptRoles, 'custom:structure'), 'structure keys');

  const repo = {};
  const inc = (name) => ({ include: `#${name}` });

  // ---- TOML base -------------------------------------------------------------------------------

  repo.comment = {
    match: '(#).*$',
    name: 'comment.line.number-sign.toml',
    captures: { 1: { name: 'punctuation.definition.comment.toml' } },
  };
  repo['key-parts'] = {
    patterns: [
      { match: '"(?:[^"\\\\]|\\\\.)*"', name: 'support.type.property-name.toml string.quoted.double.basic.toml' },
      { match: "'[^']*'", name: 'support.type.property-name.toml string.quoted.single.literal.toml' },
      { match: BARE, name: 'support.type.property-name.toml' },
      { match: '\\.', name: 'punctuation.separator.dot.toml' },
    ],
  };
  repo['table-key-parts'] = {
    patterns: [
      { match: '"(?:[^"\\\\]|\\\\.)*"', name: 'support.type.property-name.table.toml string.quoted.double.basic.toml' },
      { match: "'[^']*'", name: 'support.type.property-name.table.toml string.quoted.single.literal.toml' },
      { match: BARE, name: 'support.type.property-name.table.toml' },
      { match: '\\.', name: 'punctuation.separator.dot.toml' },
    ],
  };
  repo.entry = {
    match: `${ENTRY_START}(${KEYPATH})${WS}(=)`,
    captures: { 1: { patterns: [inc('key-parts')] }, 2: { name: 'punctuation.separator.key-value.toml' } },
  };

  repo['toml-escape'] = {
    patterns: [
      { match: '\\\\(?:[btnfre"\\\\/]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})', name: 'constant.character.escape.toml' },
      { match: '\\\\[ \\t]*$', name: 'constant.character.escape.line-ending.toml' },
      { match: '\\\\.', name: 'invalid.illegal.escape.toml' },
    ],
  };
  const escapes = (kind) => (KINDS[kind].escapes ? [inc('toml-escape')] : []);

  /** A string rule of one kind, with extra scopes and inner patterns. */
  const stringRule = (kind, extra, patterns) => {
    const k = KINDS[kind];
    return {
      name: extra ? `${k.name} ${extra}` : k.name,
      begin: escapeRe(k.begin),
      beginCaptures: { 0: { name: 'punctuation.definition.string.begin.toml' } },
      end: k.end,
      endCaptures: k.multiline ? { 2: { name: 'punctuation.definition.string.end.toml' } } : { 1: { name: 'punctuation.definition.string.end.toml' } },
      patterns: [...escapes(kind), ...patterns],
    };
  };
  for (const kind of KIND_NAMES) repo[`string-${kind}`] = stringRule(kind, '', []);
  repo.string = { patterns: KIND_NAMES.map((k) => inc(`string-${k}`)) };

  repo.datetime = {
    patterns: [
      {
        match: '(?<![\\w:.+-])\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:[Zz]|[+-]\\d{2}:\\d{2})(?![\\w:.])',
        name: 'constant.other.time.datetime.offset.toml',
      },
      { match: '(?<![\\w:.+-])\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?![\\w:.+-])', name: 'constant.other.time.datetime.local.toml' },
      { match: '(?<![\\w:.+-])\\d{4}-\\d{2}-\\d{2}(?![\\w:.+-])', name: 'constant.other.time.date.toml' },
      { match: '(?<![\\w:.+-])\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?![\\w:.+-])', name: 'constant.other.time.time.toml' },
    ],
  };
  const numStart = '(?<![\\w.+-])';
  const numEnd = '(?![\\w.])';
  repo.number = {
    patterns: [
      { match: `${numStart}0x[0-9A-Fa-f](?:_?[0-9A-Fa-f])*${numEnd}`, name: 'constant.numeric.integer.hex.toml' },
      { match: `${numStart}0o[0-7](?:_?[0-7])*${numEnd}`, name: 'constant.numeric.integer.oct.toml' },
      { match: `${numStart}0b[01](?:_?[01])*${numEnd}`, name: 'constant.numeric.integer.bin.toml' },
      { match: `${numStart}[+-]?inf${numEnd}`, name: 'constant.numeric.float.inf.toml' },
      { match: `${numStart}[+-]?nan${numEnd}`, name: 'constant.numeric.float.nan.toml' },
      {
        match: `${numStart}[+-]?(?:0|[1-9](?:_?\\d)*)(?:\\.\\d(?:_?\\d)*(?:[eE][+-]?\\d(?:_?\\d)*)?|[eE][+-]?\\d(?:_?\\d)*)${numEnd}`,
        name: 'constant.numeric.float.toml',
      },
      { match: `${numStart}[+-]?(?:0|[1-9](?:_?\\d)*)${numEnd}`, name: 'constant.numeric.integer.toml' },
    ],
  };
  repo.boolean = { match: '(?<![\\w.-])(?:true|false)(?![\\w.-])', name: 'constant.language.boolean.toml' };
  repo.scalar = { patterns: [inc('string'), inc('datetime'), inc('number'), inc('boolean')] };

  /** An array and an inline table whose entries are read with `entries` (a context). */
  const containers = (ctx, entries) => {
    repo[`array-${ctx}`] = {
      name: 'meta.array.toml',
      begin: '\\[',
      beginCaptures: { 0: { name: 'punctuation.definition.array.begin.toml' } },
      end: `(\\])|${ARRAY_RECOVER}`,
      endCaptures: { 1: { name: 'punctuation.definition.array.end.toml' } },
      patterns: [inc('comment'), inc(`value-${ctx}`), { match: ',', name: 'punctuation.separator.array.toml' }],
    };
    repo[`inline-table-${ctx}`] = {
      name: 'meta.inline-table.toml',
      begin: '\\{',
      beginCaptures: { 0: { name: 'punctuation.definition.inline-table.begin.toml' } },
      end: `(\\})|${HEADER_AHEAD}`,
      endCaptures: { 1: { name: 'punctuation.definition.inline-table.end.toml' } },
      patterns: [inc('comment'), ...entries, inc(`value-${ctx}`), { match: ',', name: 'punctuation.separator.inline-table.toml' }],
    };
    repo[`value-${ctx}`] = { patterns: [inc('scalar'), inc(`array-${ctx}`), inc(`inline-table-${ctx}`)] };
  };

  /** `key = value` for the listed keys, the value read with `patterns`. Ends right after the value. */
  const keyed = (keys, patterns, keyName = 'support.type.property-name.toml') => ({
    begin: `${ENTRY_START}(${alt(keys)})${WS}(=)${WS}`,
    beginCaptures: { 1: { name: keyName }, 2: { name: 'punctuation.separator.key-value.toml' } },
    end: '(?!\\G)',
    patterns,
  });
  /** `any.key = value`, the value read with `patterns`. */
  const anyKeyed = (patterns, keyName) => ({
    begin: `${ENTRY_START}(${KEYPATH})${WS}(=)${WS}`,
    beginCaptures: { 1: { patterns: [inc(keyName ? keyPartsAs(keyName) : 'key-parts')] }, 2: { name: 'punctuation.separator.key-value.toml' } },
    end: '(?!\\G)',
    patterns,
  });
  /** Key parts whose names carry an MTHDS scope (input names, field names, pipe and concept codes). */
  function keyPartsAs(scope) {
    const id = `key-parts-${scope.split('.').slice(0, -1).join('-')}`;
    repo[id] ??= {
      patterns: [
        { match: '"(?:[^"\\\\]|\\\\.)*"', name: `support.type.property-name.toml string.quoted.double.basic.toml ${scope}` },
        { match: "'[^']*'", name: `support.type.property-name.toml string.quoted.single.literal.toml ${scope}` },
        { match: BARE, name: `support.type.property-name.toml ${scope}` },
        { match: '\\.', name: 'punctuation.separator.dot.toml' },
      ],
    };
    return id;
  }

  containers('generic', [inc('entry')]);

  // ---- References --------------------------------------------------------------------------------

  const packagePrefix = {
    match: '\\G[ \\t]*([^\\s"\'\\\\>]+?)(->)',
    captures: { 1: { name: 'entity.name.namespace.package.mthds' }, 2: { name: 'punctuation.separator.package.mthds' } },
  };
  const domainSegment = {
    match: `(${IDENT})(\\.)`,
    captures: { 1: { name: 'entity.name.namespace.domain.mthds' }, 2: { name: 'punctuation.separator.domain.mthds' } },
  };
  repo['concept-ref-inner'] = {
    patterns: [
      packagePrefix,
      domainSegment,
      { match: `(?<![\\w])(?:${alt(natives)})(?![\\w])`, name: 'support.type.native-concept.mthds' },
      { match: IDENT, name: 'entity.name.type.concept.mthds' },
      {
        match: '(\\[)([0-9]*)(\\])',
        name: 'keyword.operator.multiplicity.mthds',
        captures: { 2: { name: 'constant.numeric.integer.multiplicity.mthds' } },
      },
      { match: '[?!]', name: 'keyword.operator.presence.mthds' },
    ],
  };
  repo['pipe-ref-inner'] = {
    patterns: [packagePrefix, domainSegment, { match: IDENT, name: 'entity.name.function.pipe-reference.mthds' }],
  };
  repo['outcome-inner'] = {
    patterns: [
      { match: `(?<![\\w.>])(?:${alt(outcomes)})(?![\\w.])`, name: 'constant.language.outcome.mthds' },
      inc('pipe-ref-inner'),
    ],
  };
  repo['model-ref-inner'] = {
    patterns: [
      {
        match: '\\G[ \\t]*((?:preset|alias|waterfall|handle):|[$@~])([^\\s"\'\\\\]*)',
        captures: { 1: { name: 'keyword.operator.model-sigil.mthds' }, 2: { name: 'variable.other.model.mthds' } },
      },
      { match: '\\G[ \\t]*([^\\s"\'\\\\]+)', captures: { 1: { name: 'variable.other.model.mthds' } } },
    ],
  };
  repo['pipe-type-inner'] = {
    patterns: [
      { match: `(?<![\\w])(?:${alt(pipeTypeNames)})(?![\\w])`, name: 'support.class.pipe-type.mthds' },
      ...(retiredPipeTypes.length ? [{ match: `(?<![\\w])(?:${alt(retiredPipeTypes)})(?![\\w])`, name: 'invalid.deprecated.pipe-type.mthds' }] : []),
    ],
  };
  repo['domain-inner'] = {
    patterns: [
      { match: IDENT, name: 'entity.name.namespace.domain.mthds' },
      { match: '\\.', name: 'punctuation.separator.domain.mthds' },
    ],
  };
  // Reference strings: single-line kinds only (a multi-line string there is just a string).
  const refString = (id, meta, inner) => {
    for (const kind of SINGLE_LINE_KINDS) repo[`${id}-${kind}`] = stringRule(kind, meta, [inc(inner)]);
    repo[id] = { patterns: SINGLE_LINE_KINDS.map((k) => inc(`${id}-${k}`)) };
  };
  refString('concept-ref-string', 'meta.reference.concept.mthds', 'concept-ref-inner');
  refString('pipe-ref-string', 'meta.reference.pipe.mthds', 'pipe-ref-inner');
  refString('outcome-string', 'meta.reference.pipe.mthds', 'outcome-inner');
  refString('model-ref-string', 'meta.reference.model.mthds', 'model-ref-inner');
  refString('pipe-type-string', 'meta.pipe-type.mthds', 'pipe-type-inner');
  refString('domain-string', 'meta.domain.mthds', 'domain-inner');

  // ---- Templates: Jinja and the shorthands --------------------------------------------------------

  repo['shorthand-escape'] = { match: '@@|\\$\\$', name: 'constant.character.escape.template.mthds' };
  for (const kind of KIND_NAMES) {
    const k = KINDS[kind];
    const stop = `(?=${k.term})`;
    const jinjaStrings = [];
    if (kind !== 'basic') {
      // In a basic string `"` ends the TOML string, so Jinja strings there use quotes `'` only.
      jinjaStrings.push({
        name: 'string.quoted.double.jinja',
        begin: '"',
        end: kind === 'lit' ? `"|(?=')|$` : '"|$',
        patterns: [],
      });
    }
    if (kind !== 'lit') {
      jinjaStrings.push({
        name: 'string.quoted.single.jinja',
        begin: "'",
        end: kind === 'basic' ? `'|(?=")|$` : kind === 'mllit' ? `'|(?=''')|$` : `'|$`,
        patterns: escapes(kind),
      });
    }
    repo[`jinja-inner-${kind}`] = {
      patterns: [
        ...escapes(kind),
        ...jinjaStrings,
        { match: '(?<![\\w.])[0-9]+(?:\\.[0-9]+)?(?![\\w])', name: 'constant.numeric.jinja' },
        { match: '\\b(?:true|false|none|True|False|None)\\b', name: 'constant.language.jinja' },
        {
          match: `(\\|)${WS}(${IDENT})`,
          captures: { 1: { name: 'punctuation.separator.filter.jinja' }, 2: { name: 'support.function.filter.jinja' } },
        },
        {
          match: `\\b(is)[ \\t]+(?:(not)[ \\t]+)?(${IDENT})`,
          captures: { 1: { name: 'keyword.operator.word.jinja' }, 2: { name: 'keyword.operator.word.jinja' }, 3: { name: 'support.function.test.jinja' } },
        },
        { match: '\\b(?:and|or|not|in|is)\\b', name: 'keyword.operator.word.jinja' },
        {
          match: '\\b(?:if|else|elif|for|recursive|as|with|without|context|import|from|ignore|missing|set|endset)\\b',
          name: 'keyword.control.jinja',
        },
        { match: `${IDENT}(?=${WS}\\()`, name: 'entity.name.function.jinja' },
        { match: IDENT, name: 'variable.other.jinja' },
        { match: '\\.', name: 'punctuation.accessor.jinja' },
        { match: '==|!=|<=|>=|\\*\\*|//|[<>+\\-*/%~=]', name: 'keyword.operator.jinja' },
        { match: '[()\\[\\]{}]', name: 'punctuation.bracket.jinja' },
        { match: '[,:]', name: 'punctuation.separator.jinja' },
      ],
    };
    repo[`jinja-${kind}`] = {
      patterns: [
        {
          name: 'comment.block.jinja',
          begin: '\\{#',
          beginCaptures: { 0: { name: 'punctuation.definition.comment.begin.jinja' } },
          end: `(#\\})|${stop}`,
          endCaptures: { 1: { name: 'punctuation.definition.comment.end.jinja' } },
        },
        {
          name: 'meta.embedded.statement.jinja',
          begin: `(\\{%[-+]?)${WS}(${IDENT})?`,
          beginCaptures: { 1: { name: 'punctuation.section.embedded.begin.jinja' }, 2: { name: 'keyword.control.jinja' } },
          end: `([-+]?%\\})|${stop}`,
          endCaptures: { 1: { name: 'punctuation.section.embedded.end.jinja' } },
          patterns: [inc(`jinja-inner-${kind}`)],
        },
        {
          name: 'meta.embedded.expression.jinja',
          begin: '\\{\\{[-+]?',
          beginCaptures: { 0: { name: 'punctuation.section.embedded.begin.jinja' } },
          end: `([-+]?\\}\\})|${stop}`,
          endCaptures: { 1: { name: 'punctuation.section.embedded.end.jinja' } },
          patterns: [inc(`jinja-inner-${kind}`)],
        },
      ],
    };
    // `@var` / `@?var` alone on its line (for a single-line string: the whole string). In a basic
    // string an escaped `\n` also starts and ends a line of the template.
    const lineStarts = [...(k.multiline ? ['^'] : []), '\\G', ...(k.escapes ? ['(?<=\\\\n)'] : [])];
    const lineEnds = [...(k.multiline ? ['$'] : []), k.term, ...(k.escapes ? ['\\\\[nr]'] : [])];
    // `$var` needs no word character before it; after an escape (`\n$var`) the `n` is not one.
    const dollarBefore = k.escapes ? '(?:(?<!\\w)|(?<=\\\\[btnfr]))' : '(?<!\\w)';
    repo[`shorthand-${kind}`] = {
      patterns: [
        inc('shorthand-escape'),
        {
          match: `(?:${lineStarts.join('|')})${WS}(@\\??)(${PATH})(?=${WS}(?:${lineEnds.join('|')}))`,
          captures: { 1: { name: 'punctuation.definition.variable.mthds' }, 2: { name: 'variable.other.template.mthds' } },
        },
        {
          match: `${dollarBefore}(\\$)(${PATH})(?![A-Za-z0-9_])(?![ \\t]+(?:${k.dollarStop}))`,
          captures: { 1: { name: 'punctuation.definition.variable.mthds' }, 2: { name: 'variable.other.template.mthds' } },
        },
      ],
    };
    repo[`template-${kind}`] = stringRule(kind, 'meta.template.mthds', [inc(`jinja-${kind}`), inc(`shorthand-${kind}`)]);
    repo[`raw-template-${kind}`] = stringRule(kind, 'meta.template.mthds', [inc(`jinja-${kind}`)]);
    repo[`expression-${kind}`] = stringRule(kind, 'meta.template.expression.mthds', [inc(`jinja-${kind}`), inc(`jinja-inner-${kind}`)]);
  }
  repo['template-string'] = { patterns: KIND_NAMES.map((k) => inc(`template-${k}`)) };
  repo['raw-template-string'] = { patterns: KIND_NAMES.map((k) => inc(`raw-template-${k}`)) };
  repo['expression-string'] = { patterns: KIND_NAMES.map((k) => inc(`expression-${k}`)) };

  // ---- Contexts ----------------------------------------------------------------------------------

  // Inputs: `name = "Concept"` or `name = { concept = "Concept", hints = {...} }`.
  containers('input-slot', [keyed(['concept'], [inc('concept-ref-string'), inc('value-generic')]), inc('entry')]);
  const inputEntry = anyKeyed([inc('concept-ref-string'), inc('inline-table-input-slot'), inc('value-generic')], 'variable.parameter.input.mthds');
  containers('inputs', [inputEntry]);
  // Outcomes: `"label" = "pipe"` (or fail / continue).
  const outcomeEntry = anyKeyed([inc('outcome-string'), inc('value-generic')]);
  containers('outcomes', [outcomeEntry]);

  // Pipe sections, and every table and array below them.
  repo['pipe-entries'] = {
    patterns: [
      keyed([...pipeTypeKeys, ...signatureKeys], [inc('pipe-type-string'), inc('value-pipe')]),
      keyed(inputKeys, [inc('inline-table-inputs'), inc('value-generic')]),
      keyed(ioKeys, [inc('concept-ref-string'), inc('value-pipe')]),
      keyed(shorthandTemplateKeys, [inc('template-string'), inc('value-pipe')]),
      ...(rawTemplateKeys.length ? [keyed(rawTemplateKeys, [inc('raw-template-string'), inc('value-pipe')])] : []),
      keyed(expressionKeys, [inc('expression-string'), inc('value-pipe')]),
      keyed(modelKeys, [inc('model-ref-string'), inc('value-pipe')]),
      keyed(plainPipeRefKeys, [inc('pipe-ref-string'), inc('value-pipe')]),
      keyed(outcomeKeys, [inc('outcome-string'), inc('value-pipe')]),
      keyed(outcomeMapKeys, [inc('inline-table-outcomes'), inc('value-generic')]),
      inc('entry'),
    ],
  };
  containers('pipe', [inc('pipe-entries')]);

  // Concepts.
  repo['structure-field-entries'] = {
    patterns: [keyed(fieldConceptKeys, [inc('concept-ref-string'), inc('value-generic')]), inc('entry')],
  };
  containers('structure-field', [inc('structure-field-entries')]);
  repo['structure-entries'] = {
    patterns: [anyKeyed([inc('inline-table-structure-field'), inc('value-generic')], 'variable.other.field.mthds')],
  };
  containers('structure', [inc('structure-entries')]);
  repo['concept-entries'] = {
    patterns: [
      keyed(conceptRefKeys, [inc('concept-ref-string'), inc('value-generic')]),
      keyed(structureKeys, [inc('inline-table-structure'), inc('value-generic')]),
      inc('entry'),
    ],
  };
  containers('concept', [inc('concept-entries')]);

  // The bundle's own keys, before the first header.
  repo['bundle-entries'] = {
    patterns: [
      ...(domainKeys.length ? [keyed(domainKeys, [inc('domain-string'), inc('value-generic')])] : []),
      ...(bundlePipeKeys.length ? [keyed(bundlePipeKeys, [inc('pipe-ref-string'), inc('value-generic')])] : []),
      ...(bundleTemplateKeys.length ? [keyed(bundleTemplateKeys, [inc('template-string'), inc('value-generic')])] : []),
      inc('entry'),
    ],
  };

  // ---- Sections (a header and its keys, up to the next header) ---------------------------------------

  const P = {
    open: { name: 'punctuation.definition.table.begin.toml' },
    close: { name: 'punctuation.definition.table.end.toml' },
    openArray: { name: 'punctuation.definition.table.array.begin.toml' },
    closeArray: { name: 'punctuation.definition.table.array.end.toml' },
    dot: { name: 'punctuation.separator.dot.toml' },
    // A capture read with patterns loses the scopes of capture 0 (vscode-textmate), so it names its own.
    rest: { name: 'meta.table.toml', patterns: [inc('table-key-parts')] },
  };
  const section = (begin, beginCaptures, patterns) => ({
    begin,
    beginCaptures,
    end: HEADER_AHEAD,
    patterns: [inc('comment'), ...patterns],
  });
  const PIPE_NAME = '([A-Za-z0-9_-]+)';
  const head = (word) => `^${WS}(\\[)${WS}(${word})${WS}(\\.)${WS}`;
  const headCaptures = (storage, nameScope) => ({
    0: { name: 'meta.table.toml' },
    1: P.open,
    2: { name: `support.type.property-name.table.toml ${storage}` },
    3: P.dot,
    4: { name: nameScope },
  });
  const PIPE = 'entity.name.function.pipe.mthds';
  const CONCEPT = 'entity.name.type.concept.mthds';

  repo['section-pipe-inputs'] = section(
    `${head('pipe')}${PIPE_NAME}${WS}(\\.)${WS}(${alt(inputKeys)})${WS}(\\])`,
    { ...headCaptures('storage.type.pipe.mthds', PIPE), 5: P.dot, 6: { name: 'support.type.property-name.table.toml' }, 7: P.close },
    [inputEntry, inc('value-generic')],
  );
  repo['section-pipe-outcomes'] = section(
    `${head('pipe')}${PIPE_NAME}${WS}(\\.)${WS}(${alt(outcomeMapKeys)})${WS}(\\])`,
    { ...headCaptures('storage.type.pipe.mthds', PIPE), 5: P.dot, 6: { name: 'support.type.property-name.table.toml' }, 7: P.close },
    [outcomeEntry, inc('value-generic')],
  );
  repo['section-pipe'] = section(
    `^${WS}(\\[\\[?)${WS}(pipe)${WS}(\\.)${WS}${PIPE_NAME}((?:${WS}\\.${WS}${KEYSEG})*)${WS}(\\]\\]?)`,
    { ...headCaptures('storage.type.pipe.mthds', PIPE), 5: P.rest, 6: P.close },
    [inc('pipe-entries'), inc('value-pipe')],
  );
  repo['section-pipes'] = section(
    `^${WS}(\\[)${WS}(pipe)${WS}(\\])`,
    { 0: { name: 'meta.table.toml' }, 1: P.open, 2: { name: 'support.type.property-name.table.toml storage.type.pipe.mthds' }, 3: P.close },
    [anyKeyed([inc('inline-table-pipe'), inc('value-generic')], PIPE), inc('value-generic')],
  );
  repo['section-concept-structure-field'] = section(
    `${head('concept')}${PIPE_NAME}${WS}(\\.)${WS}(${alt(structureKeys)})((?:${WS}\\.${WS}${KEYSEG})+)${WS}(\\])`,
    { ...headCaptures('storage.type.concept.mthds', CONCEPT), 5: P.dot, 6: { name: 'support.type.property-name.table.toml' }, 7: P.rest, 8: P.close },
    [inc('structure-field-entries'), inc('value-structure-field')],
  );
  repo['section-concept-structure'] = section(
    `${head('concept')}${PIPE_NAME}${WS}(\\.)${WS}(${alt(structureKeys)})${WS}(\\])`,
    { ...headCaptures('storage.type.concept.mthds', CONCEPT), 5: P.dot, 6: { name: 'support.type.property-name.table.toml' }, 7: P.close },
    [inc('structure-entries'), inc('value-generic')],
  );
  repo['section-concept'] = section(
    `${head('concept')}${PIPE_NAME}((?:${WS}\\.${WS}${KEYSEG})*)${WS}(\\])`,
    { ...headCaptures('storage.type.concept.mthds', CONCEPT), 5: P.rest, 6: P.close },
    [inc('concept-entries'), inc('value-concept')],
  );
  repo['section-concepts'] = section(
    `^${WS}(\\[)${WS}(concept)${WS}(\\])`,
    { 0: { name: 'meta.table.toml' }, 1: P.open, 2: { name: 'support.type.property-name.table.toml storage.type.concept.mthds' }, 3: P.close },
    [anyKeyed([inc('inline-table-concept'), inc('value-generic')], CONCEPT), inc('value-generic')],
  );
  repo['section-array-table'] = section(
    `^${WS}(\\[\\[)${WS}(${KEYPATH})${WS}(\\]\\])`,
    { 0: { name: 'meta.table.array.toml' }, 1: P.openArray, 2: { name: 'meta.table.array.toml', patterns: [inc('table-key-parts')] }, 3: P.closeArray },
    [inc('entry'), inc('value-generic')],
  );
  repo['section-table'] = section(
    `^${WS}(\\[)${WS}(${KEYPATH})${WS}(\\])`,
    { 0: { name: 'meta.table.toml' }, 1: P.open, 2: P.rest, 3: P.close },
    [inc('entry'), inc('value-generic')],
  );
  repo.sections = {
    patterns: [
      'section-pipe-inputs',
      'section-pipe-outcomes',
      'section-pipe',
      'section-pipes',
      'section-concept-structure-field',
      'section-concept-structure',
      'section-concept',
      'section-concepts',
      'section-array-table',
      'section-table',
    ].map(inc),
  };

  const sortedRepo = Object.fromEntries(Object.keys(repo).sort().map((k) => [k, repo[k]]));
  return {
    information_for_contributors: [
      `Generated by syntaxes/build-grammar.mjs from server/src/language/spec: do not edit by hand.`,
      'Run `node syntaxes/build-grammar.mjs` after changing the spec or the script.',
    ],
    name: 'MTHDS',
    scopeName: 'source.mthds',
    fileTypes: ['mthds'],
    patterns: [inc('comment'), inc('sections'), inc('bundle-entries'), inc('value-generic')],
    repository: sortedRepo,
  };
}

// ---------------------------------------------------------------------------------------------

const spec = await loadSpec();
const text = `${JSON.stringify(grammar(spec), null, 2)}\n`;
const rel = relative(process.cwd(), OUT) || OUT;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(OUT, 'utf8');
  } catch {
    // missing: reported below
  }
  if (current !== text) {
    console.error(`${rel} is out of date with the spec: run \`node syntaxes/build-grammar.mjs\`.`);
    process.exit(1);
  }
  console.log(`${rel} is up to date.`);
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${rel}`);
}
