import { defineConfig } from 'vitest/config';

// `npm run test:corpus`: the tests over the shared corpus, toml-test and the reference documents
// (../shared, or $MTHDS_SHARED). Without them these tests fail; they are never skipped.
export default defineConfig({
  test: {
    include: ['test/corpus/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
