// Registry entries: the pipe family (a pipe failing at run time).

import { family, id, int, MULTIPLICITY_LABELS, oneOf, optional, OTHERS_METHOD, OWNER_OF_METHOD, P, step, text } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const pipe = family({});

export const PIPE = [
  // Core: named by method.output_multiplicity_mismatch as its run-time twin. Same status, retry and
  // domain as that code (the method must change); parameters mirror it, with the counts observed.
  pipe({
    code: 'pipe.output_multiplicity',
    title: 'Output multiplicity violated at run time',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.pipe,
      oneOf('expected', MULTIPLICITY_LABELS, 'The multiplicity the output declares.'),
      optional(int('expected_count', 'The length declared for a fixed-length output.')),
      int('produced_count', 'Number of items the pipe produced.'),
    ],
    detail: 'The output of pipe {pipe} must be {expected}[ of exactly {expected_count} items] (items produced: {produced_count}).',
    client: [step('change_method', 'Align the declared output multiplicity with what the pipe produces.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'At run time a pipe produced a number of items its declared output does not allow. It is the run-time twin of method.output_multiplicity_mismatch, for cases the static check cannot see.',
  }),
  // 422 / no / method: sharper codes cover providers, timeouts and internal faults; what remains is
  // the method's own logic failing (a function raising, a construct failing), which must change.
  pipe({
    code: 'mthdsls.pipe.execution_failed',
    title: 'Pipe failed',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, text('finding', 'What failed, in the runtime\'s words; never quotes input values.')],
    detail: 'The pipe {pipe} failed at run time: {finding}',
    client: [step('change_method', 'Fix the pipe so that it handles this case.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A pipe failed while running, for a cause no sharper code names, for example a PipeFunc function raising an exception. The method must handle the case.',
  }),
  // 422 / no / method: the runtime already retried generation under its own policy; repeating the
  // whole run blindly would spend again for the same likely result. The prompt or concept must change.
  pipe({
    code: 'mthdsls.pipe.output_invalid',
    title: 'Pipe output invalid',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('concept', 'The output concept.'), id('field', 'Dotted path of the first failing field.')],
    detail: 'The output of pipe {pipe} does not satisfy concept {concept} at {field}.',
    client: [
      step('change_method', 'Tighten the prompt, or relax the concept (optional fields, wider choices).'),
      OWNER_OF_METHOD,
    ],
    others: OTHERS_METHOD,
    explanation:
      'The value a pipe produced fails its output concept. With a model, the prompt usually leaves the model too free or the concept is stricter than the task allows.',
  }),
  // 422 / no / runtime: like request.unsupported, a form this runner does not support as configured;
  // the fix is on the runner's side (function modules) or another runner, not the caller's input.
  pipe({
    code: 'mthdsls.pipe.func_unsupported',
    title: 'PipeFunc not supported by this runner',
    status: 422,
    retry: false,
    domain: 'runtime',
    params: [P.pipe, id('function', 'The function the pipe calls.')],
    detail: 'The pipe {pipe} calls the function {function}, but this runner has no function registry.',
    client: [step('upgrade', 'Run the method on a runner that registers the function, such as the reference runtime or a runner started with function modules.')],
    others: [step('contact_owner', 'The runner operator can register functions with function modules (functions in the runner configuration, or mthds serve --functions).')],
    explanation:
      'The method uses a PipeFunc and this runner was started without function modules, so it has no function to call. The method itself is valid.',
  }),
  // 422 / no / method: the expression is part of the method; an empty result means it does not
  // cover every input it can meet.
  pipe({
    code: 'mthdsls.pipe.condition_no_result',
    title: 'Condition produced no result',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe],
    detail: 'The expression of the PipeCondition {pipe} rendered an empty result, so no outcome could be chosen.',
    client: [step('change_method', 'Make the expression always render a value, or rely on default_outcome.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A PipeCondition expression rendered an empty or None result. It usually reads an optional field that was absent for this input.',
  }),
  // 422 / no / input: a `fail` outcome is the method's deliberate refusal of this input; the caller
  // must send another input (the method is working as its author designed).
  pipe({
    code: 'mthdsls.pipe.condition_failed',
    title: 'Condition reached a fail outcome',
    status: 422,
    retry: false,
    domain: 'input',
    params: [
      P.pipe,
      id('outcome', 'The outcome key that maps to fail, or default_outcome when no key matched.'),
    ],
    detail: 'The PipeCondition {pipe} routed outcome {outcome} to fail; the run stops here by design.',
    client: [step('change_input', 'Send an input the method accepts; the method refuses this one on purpose.')],
    others: [step('change_method', 'If this input should be handled, the method owner routes the outcome to a pipe.')],
    explanation:
      'A PipeCondition reached an outcome mapped to fail, which stops the run on purpose. The method was written to refuse inputs that lead there.',
  }),
  // 422 / no / method: run-time twin of method.template_invalid (render-time failures such as an
  // unknown format or a filter applied to an undefined value).
  pipe({
    code: 'mthdsls.pipe.template_render_failed',
    title: 'Template failed to render',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.pipe, id('template', 'Which template: the key holding it, e.g. prompt.'), P.finding],
    detail: 'The template {template} of pipe {pipe} failed to render: {finding}',
    client: [step('change_method', 'Fix the template so that it renders for every input, guarding optional values.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'A template parsed but failed while rendering, for example a filter applied to an undefined value or an unknown format name. It is the run-time twin of method.template_invalid.',
  }),
] as const;
