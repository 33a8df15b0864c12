// Structures registered by the host program. The reference runtime binds a concept declared with
// neither `structure` nor `refines` to a structure class of the program running it when one of the
// same name is registered; without one, the concept is Text-shaped. A structures file tells the
// checker, the dry run and the runner about such classes, in the terms of a concept's `structure`:
//
//   [CombinedAnalysis]                       # a concept of this name, in any domain
//   length_result = { type = "concept", concept_ref = "LengthAnalysis", description = "Length", required = true }
//
//   [reports.Summary]                        # only the concept Summary of the domain `reports`
//   abstract = "The abstract"
//
// A table whose key is PascalCase is a concept; a snake_case key is a domain segment holding them.

import type { Range, TomlDocument, LTable } from '../syntax/types.js';
import { buildStructureField } from './buildBundle.js';
import type { ConceptDecl, StructureField } from './model.js';

export interface HostStructure {
  /** The domain it is limited to; none: a concept of this code in any domain. */
  domain?: string;
  code: string;
  codeRange: Range;
  fields: StructureField[];
}

export interface HostStructures {
  file: string;
  doc: TomlDocument;
  structures: HostStructure[];
  /** Entries that are neither a concept table nor a domain table, for the checks. */
  misplaced: Array<{ key: string; range: Range }>;
}

const CONCEPT_CODE = /^[A-Z][A-Za-z0-9]*$/;
const DOMAIN_SEGMENT = /^[a-z][a-z0-9_]*$/;

export function buildHostStructures(file: string, doc: TomlDocument): HostStructures {
  const out: HostStructures = { file, doc, structures: [], misplaced: [] };
  const visit = (table: LTable, domain: string | undefined): void => {
    for (const entry of table.entries) {
      if (entry.value.type === 'table' && CONCEPT_CODE.test(entry.key)) {
        const structure: HostStructure = { code: entry.key, codeRange: entry.keyRange, fields: entry.value.entries.map(buildStructureField) };
        if (domain !== undefined) structure.domain = domain;
        out.structures.push(structure);
      } else if (entry.value.type === 'table' && DOMAIN_SEGMENT.test(entry.key)) {
        visit(entry.value, domain === undefined ? entry.key : `${domain}.${entry.key}`);
      } else out.misplaced.push({ key: entry.key, range: entry.keyRange });
    }
  };
  visit(doc.root, undefined);
  return out;
}

/**
 * The host structure bound to a concept: only a description-only concept takes one, the entry of
 * its own domain first, then one for any domain.
 */
export function hostStructureOf(structures: HostStructures | undefined, decl: ConceptDecl): HostStructure | undefined {
  if (!structures || decl.structure || decl.refines) return undefined;
  // `structure = "Name"` names the registered class; a description-only concept binds its own name.
  const code = decl.structureString?.value ?? decl.code;
  const domain = decl.bundle.domain?.value;
  const matching = structures.structures.filter((s) => s.code === code);
  return matching.find((s) => s.domain !== undefined && s.domain === domain) ?? matching.find((s) => s.domain === undefined);
}
