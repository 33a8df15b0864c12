// PostToolUse hook: when the tool wrote a .mthds file, runs `mthds check --no-dry-run` on it and
// hands the findings to the session as additional context. It never blocks (exit 0 whatever the
// findings: an intermediate state may be broken), and stays silent for other files or when the
// toolkit is not installed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let event;
try {
  event = JSON.parse(readFileSync(0, 'utf8'));
} catch {
  process.exit(0);
}
const file = event?.tool_input?.file_path;
if (typeof file !== 'string' || !file.endsWith('.mthds')) process.exit(0);
const run = spawnSync('mthds', ['check', '--no-dry-run', file], { encoding: 'utf8', timeout: 50_000, cwd: event.cwd || process.cwd() });
if (run.error || (run.status !== 0 && run.status !== 1)) process.exit(0);
const report = run.stdout.trim();
if (run.status === 0 && !/warning/.test(report)) process.exit(0);
const context = `mthds check ${file}:\n${report}\nEach line is file:line:col: severity code message; the fix in parentheses is safe to apply (the mthds MCP tool \`fix\`, or \`mthds check --fix\`); \`explain\` gives what a code means.`;
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: context } }));
