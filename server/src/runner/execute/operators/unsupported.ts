// Pipe types this runner refuses to run: PipeDocGen is an extension of the reference runtime that
// renders office files. (PipeFunc runs when a function registry is configured: func.ts.)

import { Refusal } from '../../refusal.js';
import type { PipeRunner } from '../engine.js';

export const runPipeDocGen: PipeRunner = async (_ctx, pipe) => {
  throw new Refusal('request.unsupported', { field: `pipe.${pipe.code}.type`, reason: 'pipe_doc_gen' }, { detail: `The pipe ${pipe.code} is a PipeDocGen, an extension of the reference runtime this runner does not run.` });
};
