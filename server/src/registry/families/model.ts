// Registry entries: the model family (the model a step names).

import { family, id, ids, oneOf, OTHERS_METHOD, OWNER_OF_METHOD, P, step } from './define.js';

/** An extension entry of this family: each states its own status, retry and domain, justified beside it. */
const model = family({});

export const MODEL = [
  // 422 / no / method: the method names the model; it must name one of the deck (GET /models).
  model({
    code: 'mthdsls.model.unknown',
    title: 'Unknown model',
    status: 422,
    retry: false,
    domain: 'method',
    params: [
      P.model,
      oneOf(
        'model_type',
        { llm: 'LLM', extract: 'extraction', img_gen: 'image generation', search: 'search' },
        'The model category the step needs.',
      ),
      ids('suggestions', 'Models of the deck with a close name, likeliest first.'),
    ],
    detail: "The {model_type} model {model} is not in this runner's model deck.[ Did you mean: {suggestions}?]",
    client: [
      step('change_method', 'Name a model listed by GET /models, or an alias the deck defines.'),
      step('upgrade', 'Or run the method on a runner whose deck has this model.'),
    ],
    others: OTHERS_METHOD,
    explanation:
      "A model reference (name, alias, preset or fallback chain) is not defined by the runner's model deck. Decks differ between runners, so a method can be valid on one runner and refer to an unknown model on another.",
  }),
  // 422 / no / method: the model is known but refuses a setting the step asks for.
  model({
    code: 'mthdsls.model.setting_refused',
    title: 'Model setting refused',
    status: 422,
    retry: false,
    domain: 'method',
    params: [P.model, id('setting', 'The setting the model refuses, e.g. temperature.')],
    detail: 'The model {model} refuses the setting {setting}.',
    client: [step('change_method', 'Remove the setting, or choose a model that accepts it.'), OWNER_OF_METHOD],
    others: OTHERS_METHOD,
    explanation:
      'The model exists but does not accept a setting the step gives it, for example a temperature on a reasoning model. It is the run-time counterpart of method.model_setting_invalid.',
  }),
] as const;
