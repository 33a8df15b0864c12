// The lexical rules of MTHDS: every name pattern, in one place.

export const SNAKE = /^[a-z][a-z0-9_]*$/;
export const PASCAL = /^[A-Z][a-zA-Z0-9]*$/;
export const DOMAIN_CODE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
/** Binding `from` paths and dotted `batch_over`: segments joined by single dots. */
export const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;
export const PACKAGE_ADDRESS = /^[a-zA-Z0-9._-]+\.[a-zA-Z0-9._-]+\/[a-zA-Z0-9._/-]+$/;
export const MANIFEST_NAME = /^[a-z][a-z0-9_]{1,24}$/;
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Domains no user bundle may start with. */
export const RESERVED_DOMAINS: readonly string[] = ['native', 'mthds', 'pipelex'];

/** Outcomes of a PipeCondition that are not pipes. */
export const SPECIAL_OUTCOMES: readonly string[] = ['fail', 'continue'];

/** Template names the runtime provides; never inputs. */
export const RUNTIME_TEMPLATE_NAMES: readonly string[] = ['preliminary_text', 'place_holder'];

/** Reserved prefix of hidden bindings created for dotted `batch_over`. */
export const BOUND_PREFIX = '_bound_';

/** Python keywords: structure field names must not be one (they become Python attributes). */
export const PYTHON_KEYWORDS: readonly string[] = [
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
  'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in',
  'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
];

/** Names a structure field may not take: they collide with the runtime's model machinery. */
export const RESERVED_FIELD_NAMES: readonly string[] = [
  'model_config', 'model_fields', 'model_computed_fields', 'model_dump', 'model_dump_json',
  'model_validate', 'model_validate_json', 'model_copy', 'model_fields_set', 'model_extra',
];

/** A valid Python identifier (ASCII subset, which is what structure fields use in practice). */
export const PY_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function toSnakeCase(name: string): string {
  const s = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  if (s === '') return 'x';
  return /^[a-z]/.test(s) ? s : `x_${s}`;
}

export function toPascalCase(name: string): string {
  const s = name
    .split(/[^A-Za-z0-9]+|_/)
    .filter((p) => p !== '')
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
  if (s === '') return 'X';
  return /^[A-Z]/.test(s) ? s : `X${s}`;
}
