// Runs a command of this command line inside the process and keeps what it writes: the MCP tools
// answer with exactly what `mthds check --format json`, `mthds graph` and `mthds format` print,
// from the same code, rather than a second rendering of it.

export interface CommandOutput {
  status: number;
  stdout: string;
  stderr: string;
}

type Command<C> = (args: string[], stdout: { write(text: string): unknown }, stderr: { write(text: string): unknown }, context: C) => Promise<number>;

export async function captured<C>(command: Command<C>, args: string[], context: C): Promise<CommandOutput> {
  let stdout = '';
  let stderr = '';
  const status = await command(args, { write: (t: string) => (stdout += t) }, { write: (t: string) => (stderr += t) }, context);
  return { status, stdout, stderr };
}

/** The lines a command wrote to its error output, without its name in front. */
export function problemLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((l) => l.replace(/^mthds \w+: /, '').trim())
    .filter((l) => l !== '');
}
