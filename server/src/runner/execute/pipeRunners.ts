// The one table of pipe runners: every pipe type the executor runs, to the module that runs it.
// The engine imports none of them (it reads the table from the run's context), so the operators
// and controllers depend on the engine and never the other way round.

import type { PipeTypeName } from '../../language/spec/pipeTypes.js';
import type { PipeRunner } from './engine.js';
import { runPipeBatch } from './controllers/batch.js';
import { runPipeCondition } from './controllers/condition.js';
import { runPipeParallel } from './controllers/parallel.js';
import { runPipeSequence } from './controllers/sequence.js';
import { runPipeCompose } from './operators/compose.js';
import { runPipeFunc } from './operators/func.js';
import { runPipeJudge } from './operators/judge.js';
import { runPipeLLM, runPipeStructure } from './operators/llm.js';
import { runPipeExtract, runPipeImgGen, runPipeSearch } from './operators/media.js';
import { runPipeDocGen } from './operators/unsupported.js';

/** Typed by the spec's pipe types: a type the language gains and the executor lacks does not compile. */
export const PIPE_RUNNERS: Readonly<Record<PipeTypeName, PipeRunner>> = {
  PipeBatch: runPipeBatch,
  PipeCompose: runPipeCompose,
  PipeCondition: runPipeCondition,
  PipeDocGen: runPipeDocGen,
  PipeExtract: runPipeExtract,
  PipeFunc: runPipeFunc,
  PipeImgGen: runPipeImgGen,
  PipeJudge: runPipeJudge,
  PipeLLM: runPipeLLM,
  PipeParallel: runPipeParallel,
  PipeSearch: runPipeSearch,
  PipeSequence: runPipeSequence,
  PipeStructure: runPipeStructure,
};
