// The library surface of the server package, for benchmarks and embedders.
export { parseToml } from './syntax/document.js';
export { buildBundle } from './language/buildBundle.js';
export { createTree } from './language/tree.js';
export { checkTree } from './check/index.js';
export { loadTree, planTrees } from './workspace/load.js';
export { parse as smolParse } from 'smol-toml';
export { dryRunTree } from './runner/dryRun.js';
export { ConceptCatalog } from './language/jsonSchema.js';
export { validateContents } from './runner/validate.js';
export { dryRun } from './runner/dryRun.js';
export { Session } from './workspace/session.js';
export { nodeFileSystem } from './workspace/nodeFileSystem.js';
export { MemoryFileSystem } from './workspace/memoryFileSystem.js';
export type { FileSystem } from './workspace/fileSystem.js';
