import { defineConfig } from 'vitest/config';

// `npm test`: everything the project needs, self-contained. The tests over external material
// (test/corpus/: the shared corpus, toml-test, the reference documents in ../shared) run with
// `npm run test:corpus` (vitest.corpus.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/corpus/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
