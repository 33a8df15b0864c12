// Help as processes print it: `mthds <command> --help` gives the usage, every option the command
// accepts (read from the option table the command parses with), the exit statuses and examples;
// `mthds-language-server --help` and `--version` answer and exit 0.

import { describe, expect, it } from 'vitest';
import { CHECK_OPTIONS } from '../../server/src/cli/check.js';
import { FORMAT_OPTIONS } from '../../server/src/cli/format.js';
import { GRAPH_OPTIONS } from '../../server/src/cli/graph.js';
import { SERVE_OPTIONS } from '../../server/src/cli/serve.js';
import { VERSION } from '../../server/src/version.js';
import { CLI_BIN, runCli, SERVER_BIN } from '../helpers/cli.js';

const MTHDS = CLI_BIN;
const SERVER = SERVER_BIN;

function run(bin: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = runCli(args, { bin, timeout: 30_000 });
  return { status, stdout, stderr };
}

const COMMANDS: Record<string, Record<string, { type: string; short?: string }>> = { check: CHECK_OPTIONS, format: FORMAT_OPTIONS, graph: GRAPH_OPTIONS, serve: SERVE_OPTIONS };

describe('mthds <command> --help', () => {
  it.each(Object.keys(COMMANDS))('%s: usage, every option, exit statuses, examples', (command) => {
    for (const flag of ['--help', '-h']) {
      const r = run(MTHDS, [command, flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const help = r.stdout;
      expect(help.startsWith(`Usage: mthds ${command} `)).toBe(true);
      for (const [name, spec] of Object.entries(COMMANDS[command]!)) {
        expect(help, `--${name}`).toMatch(new RegExp(`^  ${spec.short ? `-${spec.short}, ` : ''}--${name}\\b`, 'm'));
      }
      expect(help).toMatch(/^Exit status:\n(  \d+ +\S.*\n)+/m);
      const examples = help.slice(help.indexOf('\nExamples:\n'));
      expect(examples.split('\n').filter((l) => l.startsWith('  ') && l.includes(`mthds ${command}`)).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('mthds --help lists every command and points to their help', () => {
    const r = run(MTHDS, ['--help']);
    expect(r.status).toBe(0);
    for (const command of Object.keys(COMMANDS)) expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(r.stdout).toContain('mthds <command> --help');
    expect(run(MTHDS, ['--version']).stdout).toBe(`${VERSION}\n`);
  });
});

describe('mthds-language-server', () => {
  it('--help prints its usage, transports, exit statuses and examples, and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = run(SERVER, [flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.startsWith('Usage: mthds-language-server --stdio')).toBe(true);
      for (const option of ['--stdio', '--node-ipc', '--socket=PORT', '--pipe=NAME', '--clientProcessId', '--version']) expect(r.stdout).toContain(option);
      expect(r.stdout).toContain('Exit status:');
      expect(r.stdout).toContain('Examples:');
    }
  });

  it('--version prints the version and exits 0', () => {
    for (const flag of ['--version', '-v']) {
      const r = run(SERVER, [flag]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
    }
  });

  it('without a transport, says so with the usage and exits 2', () => {
    const r = run(SERVER, []);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no transport given');
    expect(r.stderr).toContain('Usage: mthds-language-server');
  });
});
