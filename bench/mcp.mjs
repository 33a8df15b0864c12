// `mthds mcp` as an agent host sees it: the time to start the server and list its tools, and the
// time of a `check` (the static checks and the dry run, through the command line's own code) and
// of a `pipe_io` call, over stdio with the official client, on a generated package.
// Usage: node bench/mcp.mjs (PIPES=300 CALLS=20).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const PIPES = Number(process.env.PIPES ?? 300);
const CALLS = Number(process.env.CALLS ?? 20);
const BIN = fileURLToPath(new URL('../server/bin/mthds.js', import.meta.url));

const pipe = (i) => `[pipe.p${i}]\ntype = "PipeCompose"\ndescription = "d${i}"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "Dear $doc"\n`;
const dir = mkdtempSync(path.join(tmpdir(), 'mthds-bench-mcp-'));
writeFileSync(path.join(dir, 'main.mthds'), `domain = "demo"\ndescription = "A demo bundle"\nmain_pipe = "p0"\n${Array.from({ length: PIPES }, (_, i) => pipe(i)).join('')}`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const client = new Client({ name: 'bench', version: '1.0.0' });
const startup = await time(async () => {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', dir], stderr: 'ignore' }));
  await client.listTools();
});
const checks = [];
const ios = [];
for (let i = 0; i < CALLS; i++) {
  checks.push(await time(() => client.callTool({ name: 'check', arguments: {} })));
  ios.push(await time(() => client.callTool({ name: 'pipe_io', arguments: { path: 'main.mthds' } })));
}
await client.close();
console.log(`mthds mcp, ${PIPES} pipes, ${CALLS} calls each (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
console.log(`start + tools/list: ${startup.toFixed(0)} ms`);
console.log(`check (static + dry run): median ${median(checks).toFixed(1)} ms, first ${checks[0].toFixed(1)} ms`);
console.log(`pipe_io (main pipe): median ${median(ios).toFixed(1)} ms, first ${ios[0].toFixed(1)} ms`);
