// Registry entries: the provider family (the inference provider).

import { family, P, step, text } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const provider = family({});

export const PROVIDER = [
  // 502 / yes / runtime: an upstream did not answer; repeating later usually succeeds.
  provider({
    code: 'mthdsls.provider.unavailable',
    title: 'Provider unavailable',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} did not answer.',
    client: [step('retry', 'Repeat the run later.')],
    others: [step('contact_owner', 'If it persists, the runner operator checks the provider status and network.')],
    explanation:
      'The inference provider did not answer or the network to it failed. It is usually transient.',
  }),
  // 503 / no / runtime: the runner cannot serve this provider at all until its operator configures
  // it (typically an API key); repeating unchanged fails the same way.
  provider({
    code: 'mthdsls.provider.not_configured',
    title: 'Provider not configured',
    status: 503,
    retry: false,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} is not configured on this runner.',
    client: [step('contact_owner', 'Ask the runner operator to configure the provider, or use a model of another provider.')],
    others: [step('check_credentials', 'The runner operator sets the provider credentials (for example its API key).')],
    explanation:
      'A step needs a provider this runner has no configuration or credentials for. The operator must configure it before the step can run.',
  }),
  // 422 / no / input: a refusal (content policy) is caused by what is sent, most often the input;
  // repeating it unchanged is refused again.
  provider({
    code: 'mthdsls.provider.refused',
    title: 'Provider refused the request',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.provider,
      {
        ...text('finding', "The provider's reason, trimmed; runners must not forward text that quotes the input."),
        echo: true,
      },
    ],
    detail: 'The inference provider {provider} refused the request: {finding}',
    client: [step('change_input', 'Change the input so that it complies with the provider policy.')],
    others: [step('change_method', 'If the prompt itself triggers the refusal, the method owner rewords it.')],
    explanation:
      'The provider refused to process the request, most often under its content policy. The input, or sometimes the prompt, must change.',
  }),
  // 429 / yes / runtime: the runner's own provider account is limited, not the caller's account.
  provider({
    code: 'mthdsls.provider.rate_limited',
    title: 'Provider rate limit reached',
    status: 429,
    retry: true,
    domain: 'runtime',
    params: [P.provider],
    detail: 'The inference provider {provider} is rate-limiting this runner.',
    client: [step('wait', 'Wait for retry_after seconds when given.'), step('retry', 'Repeat the run unchanged.')],
    others: [step('check_account', 'The runner operator can raise the limits of the provider account.')],
    explanation:
      "The provider refuses more requests from this runner for now. It is the runner's provider account that is limited, not the caller's.",
  }),
  // 502 / yes / runtime: the upstream answered something unusable; often transient.
  provider({
    code: 'mthdsls.provider.invalid_response',
    title: 'Invalid provider response',
    status: 502,
    retry: true,
    domain: 'runtime',
    params: [P.provider, P.finding],
    detail: 'The inference provider {provider} answered something unusable: {finding}',
    client: [step('retry', 'Repeat the run later.')],
    others: [step('contact_owner', 'If it persists, the runner operator reports it to the provider.')],
    explanation:
      'The provider answered, but with a body the runner cannot use (truncated, wrong shape, an error page). It is usually transient.',
  }),
] as const;
