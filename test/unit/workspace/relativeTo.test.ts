// A file's name relative to its tree's root (workspace/load.ts relativeTo) has a fast path for a
// normalized file below the root; it names every path as path.relative does.

import path from 'node:path';
import { expect, it } from 'vitest';
import { relativeTo } from '../../../server/src/workspace/load.js';

it('names every file as path.relative does, normalized or not, below the root or not', () => {
  const parts = ['a', 'b', '.', '..', '', '.hidden', 'x..y', 'c.mthds'];
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const somePath = (): string => Array.from({ length: 1 + random(4) }, () => parts[random(parts.length)]).join('/');
  const roots = ['/r', '/r/', '/', '/r/./s', 'rel', ''];
  for (let i = 0; i < 3000; i++) {
    const root = roots[random(roots.length)]!;
    const file = random(3) === 0 ? `/${somePath()}` : `${root}${root.endsWith('/') ? '' : '/'}${somePath()}`;
    expect(relativeTo(root, file), `${root} ${file}`).toBe(path.relative(root, file).split(path.sep).join('/'));
  }
});
