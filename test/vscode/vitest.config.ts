// `npm run test:vscode` only: the real VS Code test is slow and needs code-server and Chromium,
// so the default `npm test` run (vitest.config.ts, `*.test.ts`) leaves it out.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/vscode/**/*.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Each file starts its own code-server and Chromium: one at a time on a small machine.
    fileParallelism: false,
  },
});
