// A repository holding several packages, checked as a whole with nothing installed: an
// address-qualified reference to a sibling package resolves to the sibling (Pipelex/methods of
// the shared corpus).

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/files.js';
import { sharedPath } from './shared.js';
import { runCli } from '../helpers/cli.js';

const EMPTY_HOME = path.join(REPO, 'test/fixtures/dependencies/no-home');

interface JsonFinding {
  file: string;
  code: string;
}

describe('a repository holding several packages', () => {
  it('resolves github.com/Pipelex/methods/documents from the sibling package, nothing installed', () => {
    const methods = sharedPath('corpus/Pipelex__methods/methods');
    const r = runCli(['check', '--no-dry-run', '--format', 'json', methods], { env: { HOME: EMPTY_HOME, MTHDS_PACKAGES_DIR: path.join(EMPTY_HOME, 'packages') } });
    const findings = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
    expect(findings.filter((f) => f.code.startsWith('method.dependency'))).toEqual([]);
    // What remains is what the newest runtime rejects (the corpus manifest labels them invalid).
    expect([...new Set(findings.map((f) => `${path.relative(methods, f.file)} ${f.code}`))].sort()).toEqual([
      'doc-summarizer/bundle.mthds method.output_concept_mismatch',
      'doc_summarizer/bundle.mthds method.output_concept_mismatch',
      'rfp_qualifier/bundle.mthds method.output_multiplicity_mismatch',
    ]);
  });
});
