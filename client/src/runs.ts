// What the "MTHDS Runs" output channel shows for each runner command a user ran: the pipe, the run
// id, the output (the execute command's answer), or the failure. Pure formatting.

import { SERVER_COMMANDS } from './commands.js';

const MAX_OUTPUT_CHARS = 20_000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function json(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_OUTPUT_CHARS ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (${text.length - MAX_OUTPUT_CHARS} more characters)` : text;
}

function documentOf(args: readonly unknown[]): string | undefined {
  const first = args[0];
  if (isRecord(first) && typeof first['uri'] === 'string') return first['uri'];
  return typeof first === 'string' ? first : undefined;
}

/** The lines logged for one answer of a runner command (`{ ok, ... }` from the server). */
export function formatRunAnswer(command: string, args: readonly unknown[], answer: unknown, at: Date): string[] {
  const stamp = `[${at.toISOString()}]`;
  const doc = documentOf(args);
  const where = doc !== undefined ? ` (${doc})` : '';
  if (!isRecord(answer)) return [`${stamp} ${command}${where}: no answer from the language server.`];
  if (answer['ok'] !== true) return [`${stamp} ${command}${where} failed: ${typeof answer['message'] === 'string' ? answer['message'] : 'unknown error'}`];
  switch (command) {
    case SERVER_COMMANDS.execute: {
      const head = `${stamp} Run of ${String(answer['pipe'] ?? '?')}${where}: pipeline_run_id ${String(answer['pipeline_run_id'] || '(none)')}`;
      if (answer['accepted'] === true) return [head, '  accepted by the runner (HTTP 202): the run goes on there; its output is not awaited.'];
      const lines = [head];
      if (typeof answer['outputUri'] === 'string') lines.push(`  output written to ${answer['outputUri']}`);
      lines.push(...json(answer['pipe_output']).split('\n').map((l) => `  ${l}`));
      return lines;
    }
    case SERVER_COMMANDS.start:
      return [`${stamp} Run of ${String(answer['pipe'] ?? '?')}${where} started: pipeline_run_id ${String(answer['pipeline_run_id'] ?? '(none)')}`];
    case SERVER_COMMANDS.validate: {
      const verdict = isRecord(answer['verdict']) ? answer['verdict'] : {};
      if (verdict['is_valid'] === true) {
        const pending = Array.isArray(verdict['pending_signatures']) && verdict['pending_signatures'].length > 0 ? `; pending signatures: ${verdict['pending_signatures'].join(', ')}` : '';
        return [`${stamp} Validation${where}: valid${verdict['is_runnable'] === true ? ' and runnable' : ', not runnable yet'}${pending}`];
      }
      const errors = Array.isArray(verdict['validation_errors']) ? verdict['validation_errors'] : [];
      const lines = [`${stamp} Validation${where}: ${errors.length} error${errors.length === 1 ? '' : 's'} (shown as diagnostics of source "runner")`];
      for (const e of errors.slice(0, 50)) if (isRecord(e)) lines.push(`  - ${typeof e['code'] === 'string' ? `${e['code']}: ` : ''}${String(e['message'] ?? '')}`);
      return lines;
    }
    case SERVER_COMMANDS.models: {
      const models = isRecord(answer['models']) && Array.isArray(answer['models']['models']) ? answer['models']['models'] : [];
      return [`${stamp} ${models.length} model${models.length === 1 ? '' : 's'}:`, ...models.map((m) => `  - ${isRecord(m) ? `${String(m['name'])}${typeof m['type'] === 'string' ? ` (${m['type']})` : ''}` : String(m)}`)];
    }
    case SERVER_COMMANDS.version: {
      const v = isRecord(answer['version']) ? answer['version'] : {};
      return [`${stamp} Runner ${answer['builtIn'] === true ? '(built-in) ' : ''}at ${String(answer['url'])}: protocol ${String(v['protocol_version'])}${typeof v['runner_version'] === 'string' ? `, runner ${v['runner_version']}` : ''}`];
    }
    default:
      return [`${stamp} ${command}${where}: ${json(answer)}`];
  }
}
