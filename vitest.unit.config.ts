import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the unit tier for the edit loop (test/unit/: no build, no process, no
// network). Its files share one module graph per thread (no isolation), which saves most of the
// tier's time: each file otherwise imports the language and the checker anew. The files that need
// a fresh module state (what they assert happens once per process) run isolated. `npm test`
// still runs every file isolated.
const FRESH = ['test/unit/lsp/warmUpPreparation.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: FRESH, pool: 'threads', isolate: false, testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'unit-fresh', include: FRESH, pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000 } },
    ],
  },
});
