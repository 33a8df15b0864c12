// Registry entries: the warnings (raised_as = warning; no status; never make a method invalid).

import { oneOf, P, step, text, warning } from './define.js';

export const WARNINGS = [
  warning({
    code: 'method.hint_invalid',
    title: 'Invalid hint',
    params: [
      oneOf(
        'reason',
        {
          unknown_key: 'its key is unknown',
          unknown_intent: 'its intent word is unknown',
          inapplicable_intent: 'its intent does not apply where it is written',
        },
        'Why the hint is ignored.',
      ),
      text('hint', 'The hint key or intent word as written.'),
    ],
    detail: 'The hint {hint} is ignored: {reason}.',
    client: [step('change_method', 'Correct or remove the hint; it has no effect as written.')],
    others: [step('change_method', 'Optional: the method owner can clean up the hint.')],
    explanation:
      "A hint's key or intent word is unknown, or its intent does not apply where it is written. Hints are advisory, so the method stays valid.",
  }),
  warning({
    code: 'method.input_presence_vacuous',
    title: 'Vacuous presence check',
    params: [P.pipe, P.input],
    detail: 'In pipe {pipe}, the presence check on {input} always succeeds: the input is always present.',
    client: [step('change_method', 'Remove the check, or declare the input optional with ? if it may be absent.')],
    others: [step('change_method', 'Optional: the method owner can simplify the check.')],
    explanation:
      'A presence check tests an input that is always present, so the check can never fail. It often means the input was meant to be declared optional.',
  }),
  warning({
    code: 'method.optional_force_redundant',
    title: 'Redundant force marker',
    params: [P.pipe, P.input],
    detail: 'In pipe {pipe}, the ! marker on {input} is redundant: the input is present wherever it is read.',
    client: [step('change_method', 'Remove the ! marker.')],
    others: [step('change_method', 'Optional: the method owner can remove the marker.')],
    explanation:
      'A ! marker forces an input that every analysed flow already guarantees present, so the marker has no effect.',
  }),
] as const;
