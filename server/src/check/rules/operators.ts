// Per-type rules of inputs and outputs: what concept and multiplicity each pipe type may take
// (method.output_concept_mismatch, method.output_multiplicity_mismatch, method.input_concept_mismatch,
// method.wiring_invalid for the one-input operators).

import { displayConcept, isRefinementOf, isTextBased, lookupConcept, runtimeFields, type Concept } from '../../language/concepts.js';
import type { Bundle, PipeDecl } from '../../language/model.js';
import { getEntry } from '../../syntax/lookup.js';
import type { CheckContext } from '../context.js';
import { makeFinding } from '../finding.js';
import type { Range } from '../../syntax/types.js';

export function checkOperatorKinds(ctx: CheckContext, bundle: Bundle): void {
  for (const pipe of bundle.pipes) if (pipe.spec) checkPipe(ctx, bundle, pipe);
}

function checkPipe(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl): void {
  const type = pipe.spec!.name;
  const io = pipe.output?.io;
  const output = io ? lookupConcept(ctx.tree, bundle, io) : undefined;
  const dynamic = is(ctx, output, 'Dynamic');

  // Multiplicity the type allows.
  if (io) {
    const m = io.multiplicity.kind;
    if (pipe.spec!.outputMultiplicity === 'single' && m !== 'single') {
      ctx.out.push(makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared: pipe.output?.raw ?? '', expected: 'single' }, bundle.file, outputRange(pipe)));
    } else if (pipe.spec!.outputMultiplicity === 'list' && m === 'single') {
      ctx.out.push(makeFinding('method.output_multiplicity_mismatch', { pipe: pipe.code, declared: pipe.output?.raw ?? '', expected: 'list' }, bundle.file, outputRange(pipe)));
    }
  }

  // A parallel combines its branches into its output, so Dynamic is no open door there.
  if (!output || (dynamic && type !== 'PipeParallel')) {
    if (type === 'PipeExtract' || type === 'PipeStructure') oneInput(ctx, bundle, pipe, type === 'PipeExtract' ? 'a Document or an Image' : 'a Text');
    return;
  }
  switch (type) {
    case 'PipeLLM': {
      // The runtime refuses an output its non-strict compatibility relates to Image: Image or a
      // refinement, and a structure with a field holding one (Page's `page_view` included).
      if (is(ctx, output, 'Image') || holdsImage(ctx, output)) outputMismatch(ctx, bundle, pipe, ['Text', 'a structured concept without an Image field']);
      const method = getEntry(pipe.table, 'structuring_method')?.value;
      if (method?.type === 'string' && method.value === 'preliminary_text' && output.kind === 'native' && output.native.code === 'Text') outputMismatch(ctx, bundle, pipe, ['a structured concept']);
      break;
    }
    case 'PipeImgGen':
      if (!is(ctx, output, 'Image')) outputMismatch(ctx, bundle, pipe, ['Image']);
      break;
    // PipeSearch may structure its answer into any concept (the runtime's own fixtures do).
    case 'PipeDocGen':
      if (!is(ctx, output, 'Document')) outputMismatch(ctx, bundle, pipe, ['Document']);
      break;
    case 'PipeExtract': {
      if (!is(ctx, output, 'Page')) outputMismatch(ctx, bundle, pipe, ['Page']);
      const input = oneInput(ctx, bundle, pipe, 'a Document or an Image');
      if (input && !is(ctx, input, 'Document') && !is(ctx, input, 'Image') && !is(ctx, input, 'Anything') && !is(ctx, input, 'Dynamic')) inputMismatch(ctx, bundle, pipe, input, ['Document', 'Image']);
      break;
    }
    case 'PipeStructure': {
      if (isTextBased(ctx.tree, output)) outputMismatch(ctx, bundle, pipe, ['a structured concept']);
      const input = oneInput(ctx, bundle, pipe, 'a Text');
      if (input && !isTextBased(ctx.tree, input)) inputMismatch(ctx, bundle, pipe, input, ['Text']);
      break;
    }
    case 'PipeJudge': {
      if (getEntry(pipe.table, 'questions')) {
        if (output.kind === 'native') outputMismatch(ctx, bundle, pipe, ['a structured concept with one field per question']);
        break;
      }
      const verdict = getEntry(pipe.table, 'options') ? 'Choice' : getEntry(pipe.table, 'levels') ? 'Rating' : 'YesNo';
      if (!is(ctx, output, verdict)) outputMismatch(ctx, bundle, pipe, [verdict]);
      break;
    }
    case 'PipeCompose': {
      const template = getEntry(pipe.table, 'template');
      if (template && !isTextBased(ctx.tree, output) && !is(ctx, output, 'Html')) outputMismatch(ctx, bundle, pipe, ['Text', 'Html']);
      break;
    }
    case 'PipeParallel': {
      // The runtime checks the list marker first and stops there (reported above).
      if (io?.multiplicity.kind !== 'single') break;
      const composite = is(ctx, output, 'Composite');
      if (!composite && output.kind === 'native') outputMismatch(ctx, bundle, pipe, ['Composite', 'a structured concept']);
      break;
    }
    default:
      break;
  }
}

/** A structure with a field (required or not, never a list) that holds an Image. */
function holdsImage(ctx: CheckContext, c: Concept): boolean {
  return (runtimeFields(ctx.tree, c) ?? []).some((f) => f.type === 'concept' && f.concept !== undefined && is(ctx, f.concept, 'Image'));
}

function is(ctx: CheckContext, c: Concept | undefined, native: string): boolean {
  return c !== undefined && isRefinementOf(ctx.tree, c, native);
}

function outputRange(pipe: PipeDecl): Range {
  return pipe.output?.node.range ?? pipe.codeRange;
}

function outputMismatch(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, expected: string[]): void {
  ctx.out.push(makeFinding('method.output_concept_mismatch', { pipe: pipe.code, declared: pipe.output?.raw ?? '', pipe_type: pipe.spec!.name, expected }, bundle.file, outputRange(pipe)));
}

/** The concept of the one input of a one-input operator; reports any other count. */
function oneInput(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, kinds: string): Concept | undefined {
  if (pipe.inputs.length !== 1) {
    const range = pipe.inputs[1]?.nameRange ?? getEntry(pipe.table, 'inputs')?.keyRange ?? pipe.codeRange;
    ctx.out.push(makeFinding('method.wiring_invalid', { pipe: pipe.code, variable_path: 'inputs', finding: `a ${pipe.spec!.name} takes exactly one input (${kinds}), found ${pipe.inputs.length}` }, bundle.file, range));
    return undefined;
  }
  // The first input whose reference parsed (the only one here).
  const ref = pipe.inputs.find((i) => i.ref?.ref)?.ref?.ref;
  return ref ? lookupConcept(ctx.tree, bundle, ref) : undefined;
}

function inputMismatch(ctx: CheckContext, bundle: Bundle, pipe: PipeDecl, concept: Concept, expected: string[]): void {
  const input = pipe.inputs[0]!;
  ctx.out.push(makeFinding('method.input_concept_mismatch', { pipe: pipe.code, input: input.name, declared: displayConcept(concept, bundle.domain?.value), expected }, bundle.file, input.ref!.node.range));
}
