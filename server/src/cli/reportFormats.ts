// CI report formats of `mthds check`: SARIF 2.1.0 (code-scanning tools) and GitHub workflow
// annotations. Rule metadata comes from the registry, the one source of codes and their meaning.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { codeDocumentationUrl } from '../registry/docs.js';
import { getEntry } from '../registry/lookup.js';
import { VERSION } from '../version.js';
import type { Finding } from '../check/index.js';

/** A finding with its 1-based start and end positions, as the reports print them. */
export interface LocatedFinding extends Finding {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

function sarifLevel(severity: string): 'error' | 'warning' | 'note' {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

/**
 * Where a file is, for SARIF: below the source root, a relative URI resolved against %SRCROOT%
 * (declared in the run's originalUriBaseIds); elsewhere an absolute file URI with no base, since a
 * base beside an absolute URI is meaningless to code-scanning tools.
 */
export function sarifArtifact(file: string, srcRoot: string): { uri: string; uriBaseId?: string } {
  const rel = path.relative(srcRoot, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { uri: pathToFileURL(file).href };
  return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/** A SARIF 2.1.0 log of the findings; files below `srcRoot` are written relative to it (see sarifArtifact). */
export function toSarif(findings: readonly LocatedFinding[], srcRoot: string, position: (file: string, offset: number) => { line: number; character: number }): unknown {
  const artifact = (file: string): { uri: string; uriBaseId?: string } => sarifArtifact(file, srcRoot);
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  const rules = codes.map((code) => {
    const entry = getEntry(code);
    return {
      id: code,
      name: code.replace(/[._](\w)/g, (_m, c: string) => c.toUpperCase()),
      shortDescription: { text: entry?.title ?? code },
      fullDescription: { text: entry?.explanation ?? entry?.title ?? code },
      helpUri: codeDocumentationUrl(code),
      help: { text: entry ? entry.advice.client.map((a) => a.text).join(' ') || entry.explanation : code },
      defaultConfiguration: { level: entry?.raisedAs === 'warning' ? 'warning' : 'error' },
    };
  });
  const index = new Map(codes.map((c, i) => [c, i]));
  const region = (f: LocatedFinding): Record<string, number> => ({ startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn });
  const results = findings.map((f) => {
    const result: Record<string, unknown> = {
      ruleId: f.code,
      ruleIndex: index.get(f.code),
      level: sarifLevel(f.severity),
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation: artifact(f.file), region: region(f) } }],
      properties: { params: f.params },
    };
    if (f.related) {
      result['relatedLocations'] = f.related.map((r, i) => {
        const a = position(r.file, r.range.start);
        const b = position(r.file, r.range.end);
        return { id: i + 1, message: { text: r.message }, physicalLocation: { artifactLocation: artifact(r.file), region: { startLine: a.line + 1, startColumn: a.character + 1, endLine: b.line + 1, endColumn: b.character + 1 } } };
      });
    }
    if (f.fix) {
      result['fixes'] = [
        {
          description: { text: f.fix.title },
          artifactChanges: groupByFile(f.fix.edits).map(([file, edits]) => ({
            artifactLocation: artifact(file),
            replacements: edits.map((e) => {
              const a = position(file, e.range.start);
              const b = position(file, e.range.end);
              return { deletedRegion: { startLine: a.line + 1, startColumn: a.character + 1, endLine: b.line + 1, endColumn: b.character + 1 }, insertedContent: { text: e.newText } };
            }),
          })),
        },
      ];
    }
    return result;
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mthds', version: VERSION, informationUri: codeDocumentationUrl(codes[0] ?? 'method.syntax').split('#')[0], rules } },
        // A base URI ends with a slash (SARIF 3.14.14), else the last segment would be replaced.
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(srcRoot.endsWith(path.sep) ? srcRoot : srcRoot + path.sep).href } },
        results,
      },
    ],
  };
}

function groupByFile<T extends { file: string }>(edits: readonly T[]): Array<[string, T[]]> {
  const map = new Map<string, T[]>();
  for (const e of edits) map.set(e.file, [...(map.get(e.file) ?? []), e]);
  return [...map];
}

/** GitHub workflow commands escape `%`, CR and LF in messages, and also `:` and `,` in properties. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error file=...,line=...::message` annotation per finding. */
export function toGithubAnnotations(findings: readonly LocatedFinding[], display: (file: string) => string): string {
  return findings
    .map((f) => {
      const kind = f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
      const props = [`file=${escapeProperty(display(f.file))}`, `line=${f.line}`, `col=${f.column}`, `endLine=${f.endLine}`, `endColumn=${f.endColumn}`, `title=${escapeProperty(f.code)}`];
      return `::${kind} ${props.join(',')}::${escapeData(f.message)}\n`;
    })
    .join('');
}
