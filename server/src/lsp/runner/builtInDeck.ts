// The model deck of the built-in runner (its default configuration: the mock models of each
// category), offered by completion and hover when no runner is configured. Desktop only: the deck
// reaches the providers' network code, which a browser's worker does not carry.

import { catalogFromDeck, type ModelCatalog } from '../../language/modelCatalog.js';
import { ModelDeck } from '../../runner/deck.js';

let builtIn: ModelCatalog | undefined;

export function builtInCatalog(): ModelCatalog {
  builtIn ??= catalogFromDeck(new ModelDeck({}, {}).wire(), 'the built-in deck');
  return builtIn;
}
