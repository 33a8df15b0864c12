// `mthds format [--check] [paths...]`: the editor's formatter for terminals and CI. Without
// `--check`, files are rewritten in place; with it, nothing is written and the files that would
// change are listed (exit 1). A file with syntax errors is never touched (reported, exit 2).
// Files are written by the guarded writer: atomically, and never over a change made since the
// read (reported as method.changed_concurrently, exit 2).

import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatText, type FormatOptions } from '../format/index.js';
import { renderDetail } from '../registry/detail.js';
import { scanMethodFiles } from '../workspace/scan.js';
import { entryKind } from '../workspace/discover.js';
import { decodeMethodBytes } from '../workspace/readText.js';
import { readSnapshot, SnapshotRefused, writeGuarded, type FileSnapshot } from '../workspace/writeGuarded.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

interface Writable {
  write(text: string): unknown;
}

export const FORMAT_OPTIONS = {
  check: { type: 'boolean' },
  indent: { type: 'string' },
  'no-align': { type: 'boolean' },
  'no-trailing-comma': { type: 'boolean' },
  'reorder-keys': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const FORMAT_USAGE = `Usage: mthds format [options] [paths...]

Formats method bundles (.mthds) and manifests (METHODS.toml) in place, in the editor's house style;
a folder means every one below it (default: the current folder). Comments and key order are kept,
and the parsed value never changes (the output is parsed back and compared). A file with syntax
errors is left alone and its errors are printed as "path:line:col: error method.syntax ...".
Files are written atomically, and never over a change made since they were read.

Options:
  --check              Write nothing; list the files that would change.
  --indent N|tab       Indentation inside multi-line arrays (default: 2 spaces).
  --no-align           Do not align the \`=\` of consecutive keys.
  --no-trailing-comma  No comma after the last item of a multi-line array.
  --reorder-keys       Sort the keys of each block of consecutive keys.
  -h, --help           Show this help.

Exit status:
  0  done, or nothing to change
  1  files would change (--check)
  2  usage error, a file that could not be read, parsed or written, or nothing to format

Examples:
  mthds format examples/
  mthds format --check .
  mthds format --indent tab --no-align method.mthds`;

export async function runFormat(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: FORMAT_OPTIONS,
    });
  } catch (error) {
    stderr.write(`mthds format: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${FORMAT_USAGE}\n`);
    return 0;
  }
  const options: FormatOptions = {};
  const indent = parsed.values.indent;
  if (indent !== undefined) {
    if (indent === 'tab') options.indentString = '\t';
    else if (/^\d+$/.test(indent) && Number(indent) <= 16) options.indentString = ' '.repeat(Number(indent));
    else {
      stderr.write(`mthds format: --indent takes a number of spaces or 'tab', not '${indent}'\n`);
      return 2;
    }
  }
  if (parsed.values['no-align']) options.alignEntries = false;
  if (parsed.values['no-trailing-comma']) options.arrayTrailingComma = false;
  if (parsed.values['reorder-keys']) options.reorderKeys = true;

  const files = collectFiles(parsed.positionals.length > 0 ? parsed.positionals : ['.'], stderr);
  if (files.problems > 0 && files.list.length === 0) return 2;
  if (files.list.length === 0) {
    stderr.write('mthds format: no method files found\n');
    return 2;
  }
  const check = parsed.values.check === true;
  let changed = 0;
  let failed = files.problems;
  for (const file of files.list) {
    let text: string;
    let snapshot: FileSnapshot;
    try {
      snapshot = readSnapshot(file);
    } catch (error) {
      const why = error instanceof SnapshotRefused ? `the file ${error.refusal.message}` : `cannot read (${error instanceof Error ? error.message : String(error)})`;
      stderr.write(`mthds format: ${display(file)}: not formatted: ${why}\n`);
      failed++;
      continue;
    }
    const decoded = decodeMethodBytes(snapshot.bytes);
    if ('fault' in decoded) {
      // Bytes that do not decode have no text to format: writing the decoded text would replace
      // them. Located as \`mthds check\` reports the same file.
      const at = offsetToPosition(computeLineStarts(decoded.text), decoded.fault.offset);
      stderr.write(`${display(file)}:${at.line + 1}:${at.character + 1}: error method.syntax ${renderDetail('method.syntax', { finding: decoded.fault.message })}\n`);
      stderr.write(`mthds format: ${display(file)}: not formatted: ${decoded.fault.message}\n`);
      failed++;
      continue;
    }
    // The bytes decode exactly: a leading BOM stays part of the text (and of the file written).
    text = snapshot.bytes.toString('utf8');
    const result = formatText(text, options);
    if (!result.ok && result.syntaxErrors) {
      // Located as `mthds check` prints them, so that editors and terminals jump to the fault.
      for (const e of result.syntaxErrors) stderr.write(`${display(file)}:${e.line}:${e.column}: error method.syntax ${renderDetail('method.syntax', { finding: e.message })}\n`);
      stderr.write(`mthds format: ${display(file)}: not formatted: ${result.reason}\n`);
      failed++;
      continue;
    }
    if (!result.ok) {
      stderr.write(`mthds format: ${display(file)}: not formatted: ${result.reason}\n`);
      failed++;
      continue;
    }
    if (result.text === text) continue;
    changed++;
    if (check) stdout.write(`${display(file)}\n`);
    else {
      // Never over a change made since the read: the file is left as the other writer made it.
      const written = writeGuarded(snapshot, result.text);
      if (written.status === 'written') stdout.write(`formatted ${display(file)}\n`);
      else {
        const why = written.status === 'changed' ? `error method.changed_concurrently ${renderDetail('method.changed_concurrently', {})}` : `cannot write (${written.message})`;
        stderr.write(`mthds format: ${display(file)}: not formatted: ${why}\n`);
        failed++;
      }
    }
  }
  if (check && changed > 0) stderr.write(`${changed} file${changed === 1 ? '' : 's'} would be reformatted\n`);
  if (failed > 0) return 2;
  return check && changed > 0 ? 1 : 0;
}

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

function collectFiles(paths: readonly string[], stderr: Writable): { list: string[]; problems: number } {
  const list = new Set<string>();
  let problems = 0;
  for (const given of paths) {
    const abs = path.resolve(given);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      stderr.write(`mthds format: ${given}: no such file or folder\n`);
      problems++;
      continue;
    }
    if (!isDir) {
      list.add(abs);
      continue;
    }
    const scan = scanMethodFiles(nodeFileSystem, abs);
    for (const f of scan.files) list.add(f);
    // A folder that cannot be listed may hold files that are not formatted: never a silent pass.
    for (const { dir, message } of scan.unreadable) {
      stderr.write(`mthds format: ${display(dir)}: the folder ${message}\n`);
      problems++;
    }
    for (const file of scan.skipped) {
      stderr.write(`mthds format: ${display(file)}: not formatted: ${entryKind(nodeFileSystem, file)}, not a regular file (links are not followed)\n`);
      problems++;
    }
  }
  return { list: [...list].sort(), problems };
}
