// Per-type rules of inputs and outputs: what concept and multiplicity each pipe type may take
// (method.output_concept_mismatch, method.output_multiplicity_mismatch, method.input_concept_mismatch,
// method.wiring_invalid for the one-input operators).

import { displayConcept, isRefinementOf, isTextBased, lookupConcept, type Concept } from '../../language/concepts.js';
import type { Bundle, PipeDecl } from '../../language/model.js';
import { getEntry } from '../../syntax/lookup.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';

export function checkOperatorKinds(ctx: CheckContext, bundle: Bundle): void {
  for (const pipe of bundle.pipes) if (pipe.spec) checkPipe(ctx, bundle, pipe);
}

function checkPipe(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const type = pipe.spec!.name;
  const domain = bundle.domain?.value;
  const io = pipe.output?.io;
  const output = io ? lookupConcept(ctx.tree, bundle, io) : undefined;
  const outputRange = pipe.output?.node.range ?? pipe.codeRange;
  const declared = pipe.output?.raw ?? '';
  const outputMismatch = (expected: string[]): void => {
    ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared, pipe_type: type, expected }, bundle.file, outputRange));
  };
  const is = (c: Concept | undefined, native: string): boolean => c !== undefined && isRefinementOf(ctx.tree, c, native);
  const dynamic = is(output, 'Dynamic');

  // Multiplicity the type allows.
  if (io) {
    const m = io.multiplicity.kind;
    if (pipe.spec!.outputMultiplicity === 'single' && m !== 'single') {
      ctx.out.push(makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared, expected: 'single' }, bundle.file, outputRange));
    } else if (pipe.spec!.outputMultiplicity === 'list' && m === 'single') {
      ctx.out.push(makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared, expected: 'list' }, bundle.file, outputRange));
    }
  }

  const inputs = pipe.inputs.filter((i) => i.ref?.ref);
  const oneInput = (kinds: string): Concept | undefined => {
    if (pipe.inputs.length !== 1) {
      const range = pipe.inputs[1]?.nameRange ?? getEntry(pipe.table, 'inputs')?.keyRange ?? pipe.codeRange;
      ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: 'inputs', finding: `a ${type} takes exactly one input (${kinds}), found ${pipe.inputs.length}` }, bundle.file, range));
      return undefined;
    }
    const ref = inputs[0]?.ref?.ref;
    return ref ? lookupConcept(ctx.tree, bundle, ref) : undefined;
  };
  const inputMismatch = (concept: Concept, expected: string[]): void => {
    const input = pipe.inputs[0]!;
    ctx.out.push(makeFinding('method.input_concept_mismatch', { pipe: pipe.code, input: input.name, declared: displayConcept(concept, domain), expected }, bundle.file, input.ref!.node.range));
  };

  if (!output || dynamic) {
    if (type === 'PipeExtract' || type === 'PipeStructure') oneInput(type === 'PipeExtract' ? 'a Document or an Image' : 'a Text');
    return;
  }
  switch (type) {
    case 'PipeLLM': {
      if (is(output, 'Image')) outputMismatch(['Text', 'a structured concept']);
      const method = getEntry(pipe.table, 'structuring_method')?.value;
      if (method?.type === 'string' && method.value === 'preliminary_text' && output.kind === 'native' && output.native.code === 'Text') outputMismatch(['a structured concept']);
      break;
    }
    case 'PipeImgGen':
      if (!is(output, 'Image')) outputMismatch(['Image']);
      break;
    // PipeSearch may structure its answer into any concept (the runtime's own fixtures do).
    case 'PipeDocGen':
      if (!is(output, 'Document')) outputMismatch(['Document']);
      break;
    case 'PipeExtract': {
      if (!is(output, 'Page')) outputMismatch(['Page']);
      const input = oneInput('a Document or an Image');
      if (input && !is(input, 'Document') && !is(input, 'Image') && !is(input, 'Anything') && !is(input, 'Dynamic')) inputMismatch(input, ['Document', 'Image']);
      break;
    }
    case 'PipeStructure': {
      if (isTextBased(ctx.tree, output)) outputMismatch(['a structured concept']);
      const input = oneInput('a Text');
      if (input && !isTextBased(ctx.tree, input)) inputMismatch(input, ['Text']);
      break;
    }
    case 'PipeJudge': {
      if (getEntry(pipe.table, 'questions')) {
        if (output.kind === 'native') outputMismatch(['a structured concept with one field per question']);
        break;
      }
      const verdict = getEntry(pipe.table, 'options') ? 'Choice' : getEntry(pipe.table, 'levels') ? 'Rating' : 'YesNo';
      if (!is(output, verdict)) outputMismatch([verdict]);
      break;
    }
    case 'PipeCompose': {
      const template = getEntry(pipe.table, 'template');
      if (template && !isTextBased(ctx.tree, output) && !is(output, 'Html')) outputMismatch(['Text', 'Html']);
      break;
    }
    case 'PipeParallel': {
      const composite = is(output, 'Composite');
      if (!composite && output.kind === 'native') outputMismatch(['Composite', 'a structured concept']);
      break;
    }
    default:
      break;
  }
}
