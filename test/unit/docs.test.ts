// The documentation as a reader walks it: the README is a short front door whose table leads to
// every guide, ARCHITECTURE.md a map that leads to docs/dev/, and every relative link of every page
// (anchors included) reaches a file and a heading that exist, so that moving a section cannot leave
// a dead link behind.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/files.js';

const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  'bench/README.md',
  'client/README.md',
  ...readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(path.join(REPO, 'docs/dev')).filter((f) => f.endsWith('.md')).map((f) => `docs/dev/${f}`),
];

function read(page: string): string {
  return readFileSync(path.join(REPO, page), 'utf8');
}

/** The text outside fenced blocks (a link-like string in a code sample is no link). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page: its headings', and the ids of its `<a id="...">` (docs/errors.md). */
function anchors(page: string): Set<string> {
  const text = prose(read(page));
  return new Set([...[...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)), ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!)]);
}

/** The relative links of a page (images included), as written. */
function relativeLinks(page: string): string[] {
  return [...prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
}

describe('the documentation pages', () => {
  it.each(PAGES)('%s: every relative link reaches a file, and every anchor a heading', (page) => {
    // The extension page is read from the package's root (the repository's root), where vsce puts it.
    const base = page === 'client/README.md' ? REPO : path.dirname(path.join(REPO, page));
    for (const link of relativeLinks(page)) {
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const file = target === '' ? path.join(REPO, page) : path.resolve(base, target);
      expect(existsSync(file), `${page}: ${link}`).toBe(true);
      if (anchor !== undefined && file.endsWith('.md')) expect([...anchors(path.relative(REPO, file))], `${page}: ${link}`).toContain(anchor);
    }
  });

  it('the README is a front door: short, and its table leads to every guide and to the map', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(250);
    const table = readme.slice(readme.indexOf('\n## Where to read next\n'), readme.indexOf('\n## ', readme.indexOf('\n## Where to read next\n') + 1));
    for (const guide of ['docs/cli.md', 'docs/runner.md', 'docs/editors.md', 'docs/agents.md', 'docs/ci.md', 'docs/errors.md', 'docs/testing.md', 'bench/README.md', 'ARCHITECTURE.md']) {
      expect(table, guide).toContain(`](${guide})`);
    }
    // No comparison with a commit of the project's history on the user's pages.
    for (const page of ['README.md', 'docs/cli.md', 'docs/runner.md', 'docs/editors.md', 'docs/agents.md', 'docs/ci.md', 'docs/testing.md', 'client/README.md']) {
      expect(prose(read(page)), page).not.toMatch(/\bbase\b[^.\n]{0,20}\b[0-9a-f]{7,40}\b/);
    }
  });

  it('ARCHITECTURE.md is a map: short, with its entry points, an Invariant per layer, and the ways to add and to find', () => {
    const map = read('ARCHITECTURE.md');
    expect(map.split(/\s+/).length).toBeLessThan(2500);
    for (const entry of ['server/src/cli/main.ts', 'server/src/lsp/main.ts', 'server/src/runner/index.ts', 'server/src/lib.ts']) {
      expect(map, entry).toContain(`\`${entry}\``);
      expect(existsSync(path.join(REPO, entry)), entry).toBe(true);
    }
    // One section per folder of server/src, each with its invariant.
    const folders = readdirSync(path.join(REPO, 'server/src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const sections = map.split('\n### ').slice(1);
    for (const folder of folders) {
      const section = sections.find((s) => s.startsWith(`\`${folder}/\``));
      expect(section, `a section for server/src/${folder}/`).toBeDefined();
      expect(section!, folder).toContain('**Invariant:**');
    }
    for (const heading of ['## Entry points', '## Code map', '## Cross-cutting concerns', '## How to add', '## Finding anything in one hop']) expect(map).toContain(`\n${heading}\n`);
    for (const page of ['docs/dev/modules.md', 'docs/dev/incremental-analysis.md', 'docs/dev/language-decisions.md', 'docs/dev/method-trees.md', 'docs/dev/runtime-parity.md', 'bench/README.md']) {
      expect(map, page).toContain(`(${page})`);
    }
  });
});
