// method.name_conflict: duplicate declarations across the bundles of a domain, native concept
// redeclarations, reserved domains and batch item names.

import type { Bundle } from '../../language/model.js';
import { RESERVED_DOMAINS } from '../../language/spec/lexical.js';
import { isNativeCode } from '../../language/spec/natives.js';
import { getEntry } from '../../syntax/lookup.js';
import type { Range } from '../../syntax/types.js';
import { makeFinding, type Finding, type RelatedLocation } from '../finding.js';
import type { DomainSymbols } from '../../language/tree.js';

type Conflict = 'duplicate_declaration' | 'native_concept' | 'batch_item' | 'reserved_domain';

type Report = (file: string, name: string, conflict: Conflict, range: Range, related?: RelatedLocation[]) => void;

function reporter(out: Finding[]): Report {
  return (file, name, conflict, range, related) => {
    out.push(makeFinding('method.name_conflict', { name, conflict }, file, range, related ? { related } : {}));
  };
}

/** Duplicates across the bundles of one domain (inside one file they are TOML duplicate keys). */
export function checkDuplicates(symbols: DomainSymbols, out: Finding[]): void {
  const report = reporter(out);
  for (const code of symbols.concepts.keys()) {
    const decls = symbols.concepts.get(code)!;
    if (decls.length < 2) continue;
    const first = decls[0]!;
    for (const other of decls.slice(1)) {
      if (other.bundle === first.bundle) continue;
      report(other.bundle.file, code, 'duplicate_declaration', other.codeRange, [{ file: first.bundle.file, range: first.codeRange, message: `\`${code}\` is first declared here` }]);
    }
  }
  for (const code of symbols.pipes.keys()) {
    const decls = symbols.pipes.get(code)!;
    // A signature and one implementation reconcile; two of either kind conflict.
    if (decls.length < 2) continue;
    for (const typeless of [true, false]) {
      const same = decls.filter((d) => d.typeless === typeless);
      const first = same[0];
      if (!first) continue;
      for (const other of same.slice(1)) {
        if (other.bundle === first.bundle) continue;
        report(other.bundle.file, code, 'duplicate_declaration', other.codeRange, [{ file: first.bundle.file, range: first.codeRange, message: `\`${code}\` is first declared here` }]);
      }
    }
  }
}

/** The conflicts of one bundle's own names: reserved domains, natives redeclared, batch items. */
export function checkBundleNames(bundle: Bundle, out: Finding[]): void {
  const report = reporter(out);
  const domain = bundle.domain;
  if (domain) {
    const first = domain.value.split('.')[0]!;
    if (RESERVED_DOMAINS.includes(first)) report(bundle.file, domain.value, 'reserved_domain', domain.range);
  }
  for (const concept of bundle.concepts) {
    if (isNativeCode(concept.code)) report(bundle.file, concept.code, 'native_concept', concept.codeRange);
  }
  for (const pipe of bundle.pipes) {
    for (const step of pipe.steps) {
      if (step.batchOver && step.batchAs && step.batchOver.value === step.batchAs.value) report(bundle.file, step.batchAs.value, 'batch_item', step.batchAs.range);
    }
    if (pipe.spec?.name === 'PipeBatch') {
      const item = getEntry(pipe.table, 'input_item_name')?.value;
      const list = getEntry(pipe.table, 'input_list_name')?.value;
      if (item?.type === 'string' && item.value !== '') {
        if (list?.type === 'string' && list.value === item.value) report(bundle.file, item.value, 'batch_item', item.range);
        else if (pipe.inputs.some((i) => i.name === item.value)) report(bundle.file, item.value, 'batch_item', item.range);
      }
    }
  }
}
