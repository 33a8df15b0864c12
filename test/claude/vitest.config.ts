// `npm run test:claude` only: the Claude Code test installs Claude Code from the npm registry into
// .cache/ first (test/claude/install-claude-code.sh), so the default `npm test` leaves it out.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/claude/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
