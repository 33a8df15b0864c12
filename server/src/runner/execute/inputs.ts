// The inputs of a run (language reference §11.1) checked against the selected pipe's declared
// inputs and bound into the starting working memory: input.missing, input.unexpected,
// input.wrong_concept (a refinement of the declared concept is accepted), input.wrong_multiplicity
// and input.invalid (naming the field, never quoting the value). Every fault is collected.

import type { ConceptCatalog, ConceptInfo } from '../../language/jsonSchema.js';
import type { PipeDecl } from '../../language/model.js';
import type { ProblemItemInput } from '../../registry/index.js';
import { fieldPath } from '../refusal.js';
import type { RunInput } from '../requests.js';
import { contentFault, listItems, normalizeItem } from './contents.js';
import { WorkingMemory } from './memory.js';

/** Whether a stuff of concept `provided` may fill an input declared as `declared`. */
export function accepts(catalog: ConceptCatalog, declared: ConceptInfo, provided: ConceptInfo): boolean {
  if (declared.ref === 'native.Anything' || declared.ref === 'native.Dynamic') return true;
  if (catalog.refines(provided, declared)) return true;
  // A concept with neither structure nor refines is Text-based: it fills a Text input.
  return declared.ref === 'native.Text' && provided.shape === 'text';
}

export function bindInputs(catalog: ConceptCatalog, pipe: PipeDecl, inputs: Readonly<Record<string, RunInput>>): { memory: WorkingMemory; faults: ProblemItemInput[] } {
  const memory = new WorkingMemory();
  const faults: ProblemItemInput[] = [];
  const declared = new Map(pipe.inputs.map((i) => [i.name, i]));
  for (const input of pipe.inputs) {
    const io = input.ref?.io;
    if (!io) continue;
    // Own members only: an input named like a member of Object.prototype (`constructor`) is absent
    // unless the caller sent it.
    const given = Object.hasOwn(inputs, input.name) ? inputs[input.name] : undefined;
    const location = { field: fieldPath('inputs', input.name) };
    if (given === undefined) {
      if (io.marker === '?') memory.markAbsent(input.name);
      else faults.push({ code: 'input.missing', params: { input: input.name }, location });
      continue;
    }
    const expected = catalog.resolve(io, pipe.bundle);
    if (!expected) continue;
    const provided = catalog.resolve(given.concept, pipe.bundle);
    if (!provided || !accepts(catalog, expected, provided)) {
      faults.push({ code: 'input.wrong_concept', params: { input: input.name, expected: expected.ref, provided: fieldPath(given.concept) }, location: { field: fieldPath('inputs', input.name, 'concept') } });
      continue;
    }
    const items = listItems(given.content);
    const m = io.multiplicity;
    if (m.kind === 'single' && items !== undefined) {
      faults.push({ code: 'input.wrong_multiplicity', params: { input: input.name, expected: 'single', provided_count: items.length }, location });
      continue;
    }
    if (m.kind !== 'single' && items === undefined) {
      faults.push({ code: 'input.wrong_multiplicity', params: { input: input.name, expected: m.kind === 'list' ? 'list' : 'count', ...(m.kind === 'fixed' ? { expected_count: m.count } : {}), provided_count: 1 }, location });
      continue;
    }
    if (m.kind === 'fixed' && items!.length !== m.count) {
      faults.push({ code: 'input.wrong_multiplicity', params: { input: input.name, expected: 'count', expected_count: m.count, provided_count: items!.length }, location });
      continue;
    }
    // The stuff keeps the concept the caller named: a refinement stays itself.
    const concept = provided.shape === 'open' && expected.shape !== 'open' ? expected : provided;
    const normalized = (items ?? [given.content]).map((item) => normalizeItem(concept, item));
    const badIndex = normalized.findIndex((item) => contentFault(catalog, concept, item) !== undefined);
    if (badIndex >= 0) {
      const fault = contentFault(catalog, concept, normalized[badIndex])!;
      const inside = items !== undefined ? `${badIndex}${fault === '(content)' ? '' : `.${fault}`}` : fault === '(content)' ? undefined : fault;
      faults.push({ code: 'input.invalid', params: { input: input.name, field: fieldPath(inside ?? input.name) }, location: { field: fieldPath('inputs', input.name, 'content', ...(inside ? [inside] : [])) } });
      continue;
    }
    memory.set(input.name, { concept, content: items !== undefined ? normalized : normalized[0], list: items !== undefined });
  }
  for (const name of Object.keys(inputs)) {
    if (!declared.has(name)) faults.push({ code: 'input.unexpected', params: { input: fieldPath(name) }, location: { field: fieldPath('inputs', name) } });
  }
  return { memory, faults };
}
