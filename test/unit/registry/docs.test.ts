// docs/errors.md is the output of renderErrorsMarkdown(); this test keeps them in sync.
// Refresh the page with: UPDATE_DOCS=1 npx vitest run test/unit/registry/docs.test.ts

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  allEntries,
  codeAnchor,
  codeDocumentationUrl,
  DEFAULT_DOCS_BASE,
  exampleOf,
  noExampleReason,
  renderErrorsMarkdown,
} from '../../../server/src/registry/index.js';
import { raisingFiles } from '../../helpers/codeSources.js';
import { REPO } from '../../helpers/files.js';

const DOCS_PATH = fileURLToPath(new URL('../../../docs/errors.md', import.meta.url));

describe('docs/errors.md', () => {
  const raisedIn = raisingFiles();
  const markdown = renderErrorsMarkdown(raisedIn);

  it('is deterministic', () => {
    expect(renderErrorsMarkdown(raisingFiles())).toBe(markdown);
  });

  it('says which source files raise each code, as the sources do', () => {
    const sections = markdown.split('<a id="');
    // A rule's code leads to its rule file in one hop.
    expect(sections.find((x) => x.startsWith('method-cycle"'))).toContain('| Raised in | `server/src/check/rules/cycles.ts` |');
    expect(raisedIn.get('method.signature_mismatch')).toEqual(['server/src/check/rules/signatures.ts']);
    expect(raisedIn.get('auth.forbidden')).toEqual(['server/src/runner/auth.ts']);
    // Readers of codes are not raisers: the repairs of the language server raise nothing.
    for (const files of raisedIn.values()) for (const f of files) expect(f.startsWith('server/src/lsp/') || f.startsWith('server/src/registry/'), f).toBe(false);
    for (const e of allEntries()) {
      const section = sections.find((x) => x.startsWith(`${codeAnchor(e.code)}"`))!;
      expect(section, e.code).toContain('| Raised in | ');
      for (const f of raisedIn.get(e.code) ?? []) expect(readFileSync(path.join(REPO, f), 'utf8'), `${e.code} in ${f}`).toContain(e.code);
    }
    // Most codes are named where they are raised.
    expect(raisedIn.size).toBeGreaterThan(allEntries().length - 10);
  });

  it('equals the generator output', () => {
    if (process.env['UPDATE_DOCS'] === '1') writeFileSync(DOCS_PATH, markdown);
    expect(existsSync(DOCS_PATH), 'docs/errors.md missing: run with UPDATE_DOCS=1').toBe(true);
    expect(readFileSync(DOCS_PATH, 'utf8')).toBe(markdown);
  });

  it('has one section per code, anchored by the code with dots as dashes', () => {
    const unescaped = markdown.replace(/\\(.)/g, '$1');
    for (const e of allEntries()) {
      const anchor = `<a id="${codeAnchor(e.code)}"></a>`;
      expect(markdown.split(anchor).length - 1, e.code).toBe(1);
      expect(unescaped).toContain(`### \`${e.code}\`: ${e.title}`);
      expect(unescaped).toContain(e.explanation);
    }
    expect(codeAnchor('method.concept_unresolved')).toBe('method-concept_unresolved');
    expect(codeAnchor('mthdsls.pipe.execution_failed')).toBe('mthdsls-pipe-execution_failed');
  });

  it("shows a code's example in its own section: the fault, the fixed file and the files it needs", () => {
    const sections = markdown.split('<a id="');
    const sectionOf = (code: string): string => sections.find((x) => x.startsWith(`${codeAnchor(code)}"`))!;
    let shown = 0;
    for (const e of allEntries()) {
      const example = exampleOf(e.code);
      const section = sectionOf(e.code);
      if (!example) {
        expect(section, e.code).not.toContain('**Example:**');
        // A method code no file shows says why, from the registry's data.
        const reason = noExampleReason(e.code);
        if (e.family === 'method') expect(reason, e.code).toBeDefined();
        if (reason !== undefined) expect(section.replaceAll('\\', ''), e.code).toContain(`**No file example:** ${reason}`);
        continue;
      }
      shown++;
      const fixedAt = section.indexOf('\nFixed:\n');
      expect(section.indexOf(`\`\`\`toml\n${example.fault}\`\`\``), e.code).toBeGreaterThan(section.indexOf('**Example:**'));
      expect(section.indexOf(`\`\`\`toml\n${example.fixed}\`\`\``, fixedAt), e.code).toBeGreaterThan(fixedAt);
      for (const f of example.context ?? []) expect(section, `${e.code} ${f.path}`).toContain(`\`${f.path}\``);
    }
    expect(shown).toBeGreaterThan(25);
    const resource = sectionOf('method.resource_missing');
    expect(resource).toContain('`templates/deck.pptx` (any content)');
  });

    it('links every in-page anchor to an existing section', () => {
    const ids = new Set([...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]));
    for (const m of markdown.matchAll(/\]\(#([^)]+)\)/g)) expect(ids.has(m[1]), m[1]).toBe(true);
  });

  it('builds documentation links', () => {
    expect(codeDocumentationUrl('method.concept_unresolved')).toBe(
      'https://github.com/mthds-language-server/mthds-language-server/blob/main/docs/errors.md#method-concept_unresolved',
    );
    expect(DEFAULT_DOCS_BASE.endsWith('docs/errors.md')).toBe(true);
    expect(codeDocumentationUrl('input.missing', 'https://example.org/errors')).toBe(
      'https://example.org/errors#input-missing',
    );
  });
});
