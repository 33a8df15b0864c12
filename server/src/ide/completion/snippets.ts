// Snippets for new declarations: a pipe of each type (a `[pipe.name]` header followed by the
// type's snippet from the language description) and a concept (simple, or with a structure).

import type { Range } from '../../syntax/types.js';
import { pipeTypeMarkdown } from '../describe.js';
import { FIELD_TYPES } from '../../language/spec/bundle.js';
import { PIPE_TYPES } from '../../language/spec/pipeTypes.js';
import type { Completion } from './types.js';
import { shiftTabStops } from '../../language/snippetText.js';

/** A new pipe of each current type, in the order of the description. */
export function pipeSnippets(range: Range, sortPrefix: string): Completion[] {
  return PIPE_TYPES.map((spec, i) => ({
    label: `pipe ${spec.name}`,
    kind: 'snippet',
    detail: `New ${spec.name} pipe`,
    documentation: pipeTypeMarkdown(spec),
    insertText: `[pipe.\${1:name}]\n${shiftTabStops(spec.snippet, 1)}\n`,
    snippet: true,
    range,
    sortText: `${sortPrefix}${String(i).padStart(2, '0')}`,
    filterText: `[pipe ${spec.name}`,
  }));
}

const FIELD_TYPE_CHOICE = `\${4|${FIELD_TYPES.join(',')}|}`;

/** A new concept: simple (description only), or with a structure. */
export function conceptSnippets(range: Range, sortPrefix: string, insideConceptTable: boolean): Completion[] {
  if (insideConceptTable) {
    return [
      {
        label: 'concept (simple)',
        kind: 'snippet',
        detail: 'New concept: Name = "description"',
        documentation: 'A concept declared by its description alone: its content is a text.',
        insertText: '${1:Name} = "${2:What it is}"',
        snippet: true,
        range,
        sortText: `${sortPrefix}0`,
        filterText: 'concept',
      },
    ];
  }
  return [
    {
      label: 'concept (simple)',
      kind: 'snippet',
      detail: 'New concept with a description',
      documentation: 'A concept declared by its description alone: its content is a text. Add `refines = "..."` to specialise another concept.',
      insertText: '[concept.${1:Name}]\ndescription = "${2:What it is}"\n',
      snippet: true,
      range,
      sortText: `${sortPrefix}0`,
      filterText: '[concept simple',
    },
    {
      label: 'concept (structured)',
      kind: 'snippet',
      detail: 'New concept with a structure',
      documentation: 'A concept with typed fields: `[concept.Name.structure]` holds one line per field.',
      insertText: `[concept.\${1:Name}]\ndescription = "\${2:What it is}"\n\n[concept.\${1:Name}.structure]\n\${3:field} = { type = "${FIELD_TYPE_CHOICE}", description = "\${5:What it holds}", required = \${6|true,false|} }\n`,
      snippet: true,
      range,
      sortText: `${sortPrefix}1`,
      filterText: '[concept structured',
    },
  ];
}
