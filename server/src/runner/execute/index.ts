// The executor: the engine runs pipes with the runners of the one table (pipeRunners.ts).

export { runPipe, type PipeRunner, type RunContext, type Invocation } from './engine.js';
export { PIPE_RUNNERS } from './pipeRunners.js';
export { WorkingMemory, wireStuff, type Stuff, type WireMemory, type WireStuff } from './memory.js';
