// The executor: every pipe type registers its runner with the engine on import.
import './operators/llm.js';
import './operators/media.js';
import './operators/judge.js';
import './operators/compose.js';
import './operators/func.js';
import './operators/unsupported.js';
import './controllers/sequence.js';
import './controllers/parallel.js';
import './controllers/condition.js';
import './controllers/batch.js';

export { runPipe, type RunContext, type Invocation } from './engine.js';
export { WorkingMemory, wireStuff, type Stuff, type WireMemory, type WireStuff } from './memory.js';
