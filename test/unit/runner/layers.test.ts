// The runner's modules form no import circle (type imports included), and the executor's engine
// imports none of the operators and controllers: they are registered from one table, which covers
// every pipe type of the language spec.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PIPE_TYPES } from '../../../server/src/language/spec/pipeTypes.js';
import { PIPE_RUNNERS } from '../../../server/src/runner/execute/index.js';

const RUNNER = fileURLToPath(new URL('../../../server/src/runner/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import of a module (value, type and side-effect imports, re-exports), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

const graph = new Map(files(RUNNER).map((f) => [f, importsOf(f).filter((t) => t.startsWith(RUNNER))]));

function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(RUNNER, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('runner layers', () => {
  it('has no import circle, type imports included', () => {
    expect(graph.size).toBeGreaterThan(40);
    expect(cycles()).toEqual([]);
  });

  it('keeps the engine free of the operators and controllers', () => {
    const engine = graph.get(path.join(RUNNER, 'execute/engine.ts'))!;
    expect(engine.filter((f) => /execute\/(operators|controllers)\//.test(f))).toEqual([]);
  });

  it('registers a runner for every pipe type of the spec, from one table', () => {
    expect(Object.keys(PIPE_RUNNERS).sort()).toEqual(PIPE_TYPES.map((t) => t.name).sort());
  });
});
