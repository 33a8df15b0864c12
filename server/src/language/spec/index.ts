// The one description of the MTHDS language. Read by validation, completion, hover and the runner.
export * from './values.js';
export * from './lexical.js';
export * from './natives.js';
export * from './settings.js';
export * from './pipeTypes.js';
export * from './bundle.js';
export * from './manifest.js';
