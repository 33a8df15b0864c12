import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buffersOfPlan, loadTreeWithBuffers } from '../../../server/src/workspace/buffers.js';
import { loadTree, planTrees } from '../../../server/src/workspace/load.js';
import { nodeFileSystem } from '../../../server/src/workspace/nodeFileSystem.js';

const BUNDLE = (domain: string, pipe: string): string => `domain = "${domain}"\ndescription = "d"\n\n[pipe.${pipe}]\ntype = "PipeLLM"\ndescription = "p"\noutput = "Text"\nprompt = "x"\n`;

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mthds-buffers-'));
  writeFileSync(path.join(dir, 'a.mthds'), BUNDLE('a', 'first'));
  writeFileSync(path.join(dir, 'b.mthds'), BUNDLE('b', 'second'));
  mkdirSync(path.join(dir, '.mthds'));
  return dir;
}

describe('loading a tree with unsaved buffers', () => {
  it('builds a buffered bundle from its buffer, keeps the others from disk, in the plan order', () => {
    const dir = folder();
    const { plans } = planTrees(nodeFileSystem, [dir]);
    const buffers = new Map([[path.join(dir, 'a.mthds'), BUNDLE('a', 'changed')]]);
    const { tree } = loadTreeWithBuffers(nodeFileSystem, plans[0]!, buffers);
    expect(tree.bundles.map((b) => `${path.basename(b.file)}:${b.pipes[0]!.code}`)).toEqual(['a.mthds:changed', 'b.mthds:second']);
    expect(loadTree(nodeFileSystem, plans[0]!).tree.bundles[0]!.pipes[0]!.code).toBe('first');
  });

  it('adds a new bundle below the root, never one in .mthds/ or outside, nor other files', () => {
    const dir = folder();
    const { plans } = planTrees(nodeFileSystem, [dir]);
    const buffers = new Map([
      [path.join(dir, 'sub/new.mthds'), BUNDLE('c', 'third')],
      [path.join(dir, '.mthds/hidden.mthds'), BUNDLE('d', 'hidden')],
      [path.join(path.dirname(dir), 'outside.mthds'), BUNDLE('e', 'outside')],
      [path.join(dir, 'notes.txt'), 'x'],
    ]);
    expect(buffersOfPlan(plans[0]!, buffers)).toEqual([path.join(dir, 'sub/new.mthds')]);
    const { tree } = loadTreeWithBuffers(nodeFileSystem, plans[0]!, buffers);
    expect(tree.bundles.map((b) => b.pipes[0]!.code)).toEqual(['first', 'second', 'third']);
    expect(tree.files.has('sub/new.mthds')).toBe(true);
  });
});
