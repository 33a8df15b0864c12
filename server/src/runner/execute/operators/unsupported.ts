// Pipe types this runner refuses to run: PipeFunc calls Python functions (no Python runtime
// here), PipeDocGen is an extension of the reference runtime that renders office files.

import { Refusal } from '../../refusal.js';
import { registerPipeRunner, setting } from '../engine.js';

registerPipeRunner('PipeFunc', async (_ctx, pipe) => {
  throw new Refusal('mthdsls.pipe.func_unsupported', { pipe: pipe.code, function: String(setting(pipe, 'function_name') ?? pipe.code) });
});

registerPipeRunner('PipeDocGen', async (_ctx, pipe) => {
  throw new Refusal('request.unsupported', { field: `pipe.${pipe.code}.type`, reason: 'pipe_doc_gen' }, { detail: `The pipe ${pipe.code} is a PipeDocGen, an extension of the reference runtime this runner does not run.` });
});
