// Well-formed sample parameter values, generated from the declared types.

import type { ParamType, ParamValues, RegistryEntry } from '../../../server/src/registry/index.js';

export function sampleValue(type: ParamType, name: string): unknown {
  switch (type.kind) {
    case 'identifier':
      return `${name}_x`;
    case 'caller_text':
      return `some text for ${name}`;
    case 'integer':
      return 3;
    case 'bytes':
      return 2048;
    case 'seconds':
      return 30;
    case 'sha256':
      return 'ab'.repeat(32);
    case 'enum':
      return type.values[0];
    case 'list':
      return [sampleValue(type.of, `${name}1`), sampleValue(type.of, `${name}2`)];
  }
}

/** Every parameter of the entry (optional ones too when `withOptional`). */
export function sampleParams(entry: RegistryEntry, withOptional = true): ParamValues {
  const out: Record<string, unknown> = {};
  for (const p of entry.params) {
    if (p.optional && !withOptional) continue;
    out[p.name] = sampleValue(p.type, p.name);
  }
  return out;
}
