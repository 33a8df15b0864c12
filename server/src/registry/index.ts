// Error registry: every error code (core registry 8.0.0 + this implementation's extensions), the
// RFC 7807 problem builder, detail rendering, parameter validation and the reference page.

export type {
  AdviceKind,
  AdviceStep,
  Domain,
  ParamKind,
  ParamSpec,
  ParamType,
  ParamValues,
  RaisedAs,
  RegistryEntry,
} from './types.js';
export { EXTENSION_PREFIX, REGISTRY_ENTRIES, type RegistryCode } from './codes.js';
export {
  allEntries,
  CORE_REGISTRY_VERSION,
  entriesOfFamily,
  getEntry,
  isClientOnly,
  isExtension,
  isRegistryCode,
  isWarning,
  PROTOCOL_VERSION,
  registrySnapshot,
  RegistryUsageError,
  requireEntry,
} from './lookup.js';
export {
  CALLER_TEXT_MAX,
  formatParamValue,
  parseTemplate,
  renderDetail,
  renderTemplate,
  templateParams,
  validateParams,
  type ParamProblem,
  type ParamProblemKind,
  type TemplatePart,
  type TemplateToken,
} from './detail.js';
export {
  buildProblem,
  buildProblemItem,
  clientFacts,
  codeFromTypeUri,
  DEFAULT_ERROR_BASE_URL,
  DEFAULT_EXTENSION_BASE_URL,
  PROBLEM_CONTENT_TYPE,
  problemItemFromEntry,
  problemTypeUri,
  WITHHELD_TEXT,
  withheldParams,
  type ClientFacts,
  type ProblemDocument,
  type ProblemItem,
  type ProblemItemInput,
  type ProblemItemOptions,
  type ProblemLocation,
  type ProblemOptions,
  type SuggestedFix,
  type TypeUriOptions,
} from './problem.js';
export { exampleCodes, exampleOf, noExampleReason, type CodeExample, type ExampleFile, type ExampleRun } from './examples.js';
export { codeAnchor, codeDocumentationUrl, DEFAULT_DOCS_BASE, exampleMarkdown, renderErrorsMarkdown, type RaisingFiles } from './docs.js';
