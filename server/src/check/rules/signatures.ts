// method.signature_mismatch: a typeless signature and the concrete pipe of the same code in the
// same domain must agree on their contract (input names, concepts, multiplicities, markers, output).
// Also the list of signatures still unimplemented (a runnability fact, never an error).

import { lookupConcept } from '../../language/concepts.js';
import type { IoRefSite, PipeDecl } from '../../language/model.js';
import type { DomainSymbols, MethodTree } from '../../language/tree.js';
import { formatMultiplicity } from '../../language/references.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

/** A contract slot normalized: `native.Text` and `Text` are one; markers count (project decision). */
function normalize(tree: MethodTree, pipe: PipeDecl, site: IoRefSite | undefined): string {
  const io = site?.io;
  if (!io) return site?.raw ?? '';
  const concept = lookupConcept(tree, pipe.bundle, io);
  const name = concept ? concept.key : `${io.prefix ? `${io.prefix}->` : ''}${io.domain ?? pipe.bundle.domain?.value}.${io.code}`;
  return `${name}${formatMultiplicity(io.multiplicity)}${io.marker ?? ''}`;
}

/** The signatures of one domain against their implementations. */
export function checkDomainSignatures(ctx: CheckContext, symbols: DomainSymbols): void {
  for (const code of symbols.pipes.keys()) {
    const decls = symbols.pipes.get(code)!;
    // A signature and its implementation: two declarations at least.
    if (decls.length < 2) continue;
    const signature = decls.find((d) => d.typeless);
    const concrete = decls.find((d) => !d.typeless);
    if (!signature || !concrete) continue;
    const differences: string[] = [];
    const sigInputs = new Map(signature.inputs.map((i) => [i.name, normalize(ctx.tree, signature, i.ref)]));
    const conInputs = new Map(concrete.inputs.map((i) => [i.name, normalize(ctx.tree, concrete, i.ref)]));
    for (const [name, spec] of sigInputs) {
      const other = conInputs.get(name);
      if (other === undefined) differences.push(`input \`${name}\` is missing`);
      else if (other !== spec) differences.push(`input \`${name}\` is ${other}, the signature says ${spec}`);
    }
    for (const name of conInputs.keys()) if (!sigInputs.has(name)) differences.push(`input \`${name}\` is not in the signature`);
    const sigOut = normalize(ctx.tree, signature, signature.output);
    const conOut = normalize(ctx.tree, concrete, concrete.output);
    if (sigOut !== conOut) differences.push(`the output is ${conOut}, the signature says ${sigOut}`);
    if (differences.length === 0) continue;
    ctx.out.push(
      makeFinding('method.signature_mismatch', { pipe: code, finding: differences.join('; ') }, concrete.bundle.file, concrete.codeRange, {
        related: [{ file: signature.bundle.file, range: signature.codeRange, message: 'the signature it implements' }],
      }),
    );
  }
}

/** `domain.code` of every signature with no implementation in the tree. */
export function pendingSignatures(tree: MethodTree): string[] {
  const pending: string[] = [];
  for (const [domain, symbols] of tree.symbols) {
    for (const [code, decls] of symbols.pipes) {
      if (decls.every((d) => d.typeless)) pending.push(`${domain}.${code}`);
    }
  }
  return pending.sort();
}
