// Registry entries: the run family (a run's lifecycle and reads).

import { CLIENT_AUTHOR, family, id, int, oneOf, optional, secs, step } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const run = family({});

export const RUN = [
  // 504 / yes / runtime: the run passed the runner's own time bound; load-dependent, may pass later.
  run({
    code: 'mthdsls.run.timeout',
    title: 'Run timed out',
    status: 504,
    retry: true,
    domain: 'runtime',
    params: [secs('seconds', 'The time bound that was passed.')],
    detail: 'The run did not finish within {seconds}.',
    client: [
      step('retry', 'Repeat later, when the runner or provider is less loaded.'),
      step('change_input', 'For long methods use POST /start instead of /execute, or send smaller inputs.'),
    ],
    others: [step('contact_owner', 'The runner operator can raise the time bound.')],
    explanation:
      'The run passed the time bound of this runner. Slow providers, large inputs and long methods run through /execute are the usual causes.',
  }),
  // 409 / yes / runtime: the run was stopped, not refused; nothing needs to change to run it again.
  run({
    code: 'mthdsls.run.cancelled',
    title: 'Run cancelled',
    status: 409,
    retry: true,
    domain: 'runtime',
    params: [
      optional(
        oneOf('reason', { requested: 'on request', shutdown: 'the runner is shutting down' }, 'Why the run was cancelled.'),
      ),
    ],
    detail: 'The run was cancelled before it finished[ ({reason})].',
    client: [step('retry', 'Start the run again if you still need its result.')],
    others: [step('read_run', 'Check who cancelled the run if that was not expected.')],
    explanation:
      'The run was cancelled before it finished, on request or because the runner was shutting down. Nothing in the request needs to change.',
  }),
  // 404 / no / input: a status read (e.g. the Location of a 202) names a run the runner does not know.
  run({
    code: 'mthdsls.run.not_found',
    title: 'Run not found',
    status: 404,
    retry: false,
    domain: 'input',
    params: [id('run_id', 'The pipeline_run_id asked for.')],
    detail: 'No run {run_id} is known to this runner.',
    client: [step('change_input', 'Check the run identifier; runners keep no run store, so old runs are forgotten.')],
    others: [CLIENT_AUTHOR],
    explanation:
      'A read names a run this runner does not know: a wrong identifier, a run started on another runner, or a run forgotten since (the protocol keeps no run store).',
  }),
  // 409 / no / runtime: the results of a run that ended without any (the status says how it ended).
  run({
    code: 'mthdsls.run.not_completed',
    title: 'Run ended without a result',
    status: 409,
    retry: false,
    domain: 'runtime',
    params: [
      id('run_id', 'The pipeline_run_id asked for.'),
      oneOf('status', { FAILED: 'FAILED', CANCELLED: 'CANCELLED', TIMED_OUT: 'TIMED_OUT' }, 'The terminal status of the run (clients read it from the detail).'),
    ],
    detail: 'Run {run_id} finished with status {status}; no result available.',
    client: [step('read_run', 'Read GET /runs/{id}/status: its error member says why the run ended.'), step('retry', 'Start the run again if you still need its result.')],
    others: [CLIENT_AUTHOR],
    explanation: 'The run reached a terminal state other than COMPLETED, so it has no result to read; its status record carries the problem that ended it.',
  }),
  // 503 / yes / runtime: every attempt of a queued run lost its worker (killed or stalled).
  run({
    code: 'mthdsls.run.abandoned',
    title: 'Run abandoned',
    status: 503,
    retry: true,
    domain: 'runtime',
    params: [int('attempts', 'How many times a worker took the run up.')],
    detail: 'The run was given up after {attempts} attempts: each time the worker running it stopped before it finished.',
    client: [step('retry', 'Start the run again.')],
    others: [step('contact_owner', 'The runner operator checks why its workers stop (memory, deployments, crashes).')],
    explanation:
      'A queued run is taken up again by another worker when its worker stops answering; after the configured number of attempts the run ends FAILED with this code rather than being retried forever.',
  }),
] as const;
