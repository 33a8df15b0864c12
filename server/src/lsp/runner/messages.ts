// What the editor says when a runner call fails: the problem's code, title, detail and advice;
// guidance about credentials for 401/403; one clear sentence for an unreachable runner or a
// timeout; the status and the fault for an answer of the wrong shape.

import type { RunnerError } from '../../protocol/client.js';
import type { ProblemDocumentLike } from '../../protocol/types.js';
import { getEntry } from '../../registry/lookup.js';

const CREDENTIALS =
  'Set `mthds.runner.token` to a bearer token the runner accepts, or `mthds.runner.tokenEnv` to the name of an environment variable holding one (the server reads it at start-up).';

/** The registry code of a problem: its `code`, else the last segment of its `type`. */
export function problemCode(problem: ProblemDocumentLike): string | undefined {
  if (typeof problem.code === 'string' && problem.code !== '') return problem.code;
  const type = problem.type;
  if (typeof type !== 'string' || type === 'about:blank') return undefined;
  const tail = type.split(/[/#]/).pop() ?? '';
  return /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/.test(tail) ? tail : undefined;
}

function adviceOf(problem: ProblemDocumentLike, code: string | undefined): string[] {
  // A runner may send its own advice; else the registry's advice for the acting client.
  const sent = problem['advice'];
  if (typeof sent === 'string' && sent.trim() !== '') return [sent.trim()];
  if (Array.isArray(sent)) {
    const texts = sent.map((a) => (typeof a === 'string' ? a : typeof a === 'object' && a !== null && typeof (a as { text?: unknown }).text === 'string' ? (a as { text: string }).text : '')).filter((t) => t !== '');
    if (texts.length > 0) return texts;
  }
  const entry = code !== undefined ? getEntry(code) : undefined;
  return entry ? entry.advice.client.map((a) => a.text) : [];
}

export function describeProblem(status: number, problem: ProblemDocumentLike): string {
  const code = problemCode(problem);
  const title = typeof problem.title === 'string' ? problem.title : `HTTP ${status}`;
  const head = code !== undefined ? `${code}: ${title}` : `${title} (HTTP ${status})`;
  const parts = [head];
  if (typeof problem.detail === 'string' && problem.detail !== '') parts.push(problem.detail);
  const items = Array.isArray(problem.errors) ? problem.errors : [];
  for (const item of items.slice(0, 5)) {
    const message = typeof item['detail'] === 'string' ? item['detail'] : typeof item['message'] === 'string' ? item['message'] : undefined;
    if (message !== undefined) parts.push(`- ${typeof item['code'] === 'string' ? `${item['code']}: ` : ''}${message}`);
  }
  if (items.length > 5) parts.push(`(and ${items.length - 5} more)`);
  if (status === 401 || status === 403) parts.push(CREDENTIALS);
  else {
    const advice = adviceOf(problem, code);
    if (advice.length > 0) parts.push(`Advice: ${advice.join(' ')}`);
  }
  if (typeof problem.request_id === 'string') parts.push(`(request ${problem.request_id})`);
  return parts.join('\n');
}

const VSCODE_CDN = /^https:\/\/[^/]+\.vscode-cdn\.net$/;

/** `origin`: the page's, when the request came from a browser. */
export function describeRunnerError(error: RunnerError, url: string, origin?: string): string {
  switch (error.kind) {
    case 'problem':
      return describeProblem(error.status, error.problem);
    case 'unreachable':
      // A browser tells a refused cross-origin answer from no answer in no way a script can read.
      if (origin !== undefined) {
        // vscode.dev and github.dev give each session another subdomain: only the pattern lasts.
        const allow = VSCODE_CDN.test(origin) ? `'https://*.vscode-cdn.net'\` (vscode.dev and github.dev run extensions on a new subdomain of it each session)` : `${origin}\``;
        return `The runner at ${url} cannot be reached from this page, origin ${origin} (${error.message}): it is not running there, or it does not allow this origin. Start it with \`mthds serve --allow-origin ${allow}, and check \`mthds.runner.url\`.`;
      }
      return `The runner at ${url} cannot be reached (${error.message}). Check \`mthds.runner.url\`, or leave it empty to use the built-in runner.`;
    case 'timeout':
      return `The runner at ${url} did not answer within ${Math.round(error.timeoutMs / 1000)} s (\`mthds.runner.timeoutMs\`).`;
    case 'bad_response':
      return `The runner at ${url} answered status ${error.status} with a body this client cannot read: ${error.message}.${error.status === 401 || error.status === 403 ? ` ${CREDENTIALS}` : ''}`;
  }
}
