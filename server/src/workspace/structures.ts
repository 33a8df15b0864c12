// Reading a structures file (language/hostStructures.ts) from disk, for the command line, the
// language server and the runner.

import { buildHostStructures, type HostStructures } from '../language/hostStructures.js';
import { checkHostStructures } from '../check/rules/concepts.js';
import type { Finding } from '../check/finding.js';
import { parseToml } from '../syntax/document.js';
import type { FileSystem } from './fileSystem.js';

export type StructuresRead = { ok: true; structures: HostStructures; findings: Finding[] } | { ok: false; message: string };

export function readStructures(fs: FileSystem, file: string): StructuresRead {
  const read = fs.readMethodFile(file);
  if (!read.ok) return { ok: false, message: `cannot read the structures file ${file}: ${read.message}` };
  const structures = buildHostStructures(file, parseToml(read.text));
  return { ok: true, structures, findings: checkHostStructures(structures) };
}
