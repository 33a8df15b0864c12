// Lookup over the registry data.

import { EXTENSION_PREFIX, REGISTRY_ENTRIES, type RegistryCode } from './codes.js';
import type { RegistryEntry } from './types.js';

/** Version of the core error registry these codes follow. */
export const CORE_REGISTRY_VERSION = '8.0.0';
/** Version of the runner protocol this implementation speaks. */
export const PROTOCOL_VERSION = '0.6.0';

/** A programming error in the use of the registry (unknown code, forbidden combination, …). */
export class RegistryUsageError extends Error {
  override name = 'RegistryUsageError';
}

const BY_CODE: ReadonlyMap<string, RegistryEntry> = (() => {
  const map = new Map<string, RegistryEntry>();
  for (const entry of REGISTRY_ENTRIES) {
    if (map.has(entry.code)) throw new RegistryUsageError(`duplicate registry code ${entry.code}`);
    map.set(entry.code, entry);
  }
  return map;
})();

/** The entry of a code, or undefined when the code is not in the registry. */
export function getEntry(code: string): RegistryEntry | undefined {
  return BY_CODE.get(code);
}

/** The entry of a code; throws a RegistryUsageError when the code is not in the registry. */
export function requireEntry(code: string): RegistryEntry {
  const entry = BY_CODE.get(code);
  if (!entry) throw new RegistryUsageError(`unknown error code ${JSON.stringify(code)}`);
  return entry;
}

/** Every entry: core codes in the registry's order, then extension codes. */
export function allEntries(): readonly RegistryEntry[] {
  return REGISTRY_ENTRIES;
}

export function isRegistryCode(code: string): code is RegistryCode {
  return BY_CODE.has(code);
}

/** True for codes raised as warnings (no status; never make a method invalid). */
export function isWarning(code: string): boolean {
  return BY_CODE.get(code)?.raisedAs === 'warning';
}

/** True for client-family codes: detected by a client itself, never received as a body. */
export function isClientOnly(code: string): boolean {
  return BY_CODE.get(code)?.family === 'client';
}

/** True for codes this implementation adds under its extension prefix. */
export function isExtension(code: string): boolean {
  return BY_CODE.get(code)?.extension ?? code.startsWith(`${EXTENSION_PREFIX}.`);
}

/** The entries of one family (`method`, `pipe`, …), core and extension alike. */
export function entriesOfFamily(family: string): readonly RegistryEntry[] {
  return REGISTRY_ENTRIES.filter((e) => e.family === family);
}

/**
 * A JSON snapshot of the registry, as clients may vendor it: plain data, no functions. The field
 * names follow the registry's wording (`raised_as`, `retry` as yes/no).
 */
export function registrySnapshot(): {
  registry_version: string;
  protocol_version: string;
  extension_prefix: string;
  codes: Array<Record<string, unknown>>;
} {
  return {
    registry_version: CORE_REGISTRY_VERSION,
    protocol_version: PROTOCOL_VERSION,
    extension_prefix: EXTENSION_PREFIX,
    codes: REGISTRY_ENTRIES.map((e) => ({
      code: e.code,
      family: e.family,
      title: e.title,
      ...(e.status === undefined ? {} : { status: e.status }),
      retry: e.retry ? 'yes' : 'no',
      domain: e.domain,
      raised_as: e.raisedAs,
      params: e.params.map((p) => ({ ...p })),
      detail: e.detail,
      advice: { client: [...e.advice.client], others: [...e.advice.others] },
      explanation: e.explanation,
      extension: e.extension,
    })),
  };
}
