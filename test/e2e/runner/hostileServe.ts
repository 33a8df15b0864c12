// The runner as its own process for the hostile campaign (hostile.test.ts): bundled by esbuild at
// test time, started with `node --import fsAudit.mjs hostileServe.mjs CONFIG.json`, it prints its
// base URL on stdout and stops on SIGTERM. Being a process of its own, its memory (RSS) and every
// file it opens are measured apart from the test's.

import { readFileSync } from 'node:fs';
import { startRunner, type RunnerOptions } from '../../../server/src/runner/index.js';

const options = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as RunnerOptions;
const runner = await startRunner({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${runner.url}\n`);
process.on('SIGTERM', () => {
  void runner.close(2_000).then(() => process.exit(0));
});
