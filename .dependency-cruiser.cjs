// The import rules of the code base (`npm test` checks them: test/unit/architecture.test.ts, or
// `npm run deps`). Layers point downwards only, as ARCHITECTURE.md draws them:
//
//   cli/ -> lsp/ is the only sideways import refused among the front ends; below them:
//   cli/     may import ide/ and everything below
//   lsp/     may import ide/ (through ide/index.ts only), runner/, protocol/, workspace/, format/, check/, language/, syntax/, registry/
//   ide/     (the LSP-free language services) may import format/, check/, language/, syntax/, registry/,
//            and neither vscode-languageserver nor Node's own modules (the browser runs it too)
//   runner/  may import workspace/, check/, language/, syntax/, registry/ (not lsp/, cli/)
//   workspace/ may import check/, language/, syntax/ (not runner/, lsp/, cli/)
//   check/   may import language/, syntax/, registry/ (not workspace/, runner/, lsp/, cli/, format/)
//   format/  may import syntax/ only
//   language/ may import syntax/, registry/ only
//   syntax/, registry/, protocol/ import none of the layers
//   util/ and the root files (version.ts, heap.ts) are shared by every layer and import no layer.
//
// client/ (the VS Code extension) may import only the pure graph drawing of the server
// (ide/graphLayout.ts, ide/graphSvg.ts, util/markup.ts), the protocol's wire types and the names of
// the language's files and skipped folders (language/spec/folders.ts, manifest.ts); the server
// never imports the client.

const SRC = '^server/src/';
const LAYERS = ['syntax', 'registry', 'protocol', 'language', 'check', 'format', 'ide', 'workspace', 'runner', 'lsp', 'cli'];

/** A rule refusing imports from `layer` into any of `above`. */
function below(layer, above, comment) {
  return {
    name: `${layer}-not-above`,
    severity: 'error',
    comment,
    from: { path: `${SRC}${layer}/` },
    to: { path: `${SRC}(${above.join('|')})/` },
  };
}


module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles.',
      from: {},
      to: { circular: true },
    },
    below('syntax', LAYERS.filter((l) => l !== 'syntax'), 'syntax/ knows nothing of MTHDS: it imports no other layer.'),
    below('registry', LAYERS.filter((l) => l !== 'registry'), 'registry/ is data and the problem builder: it imports no other layer.'),
    below('protocol', LAYERS.filter((l) => l !== 'protocol'), 'protocol/ holds the wire types and the runner client: it imports no other layer.'),
    below('language', ['check', 'format', 'ide', 'workspace', 'runner', 'protocol', 'lsp', 'cli'], 'language/ is built on syntax/ (and the registry) only.'),
    below('format', ['registry', 'protocol', 'language', 'check', 'ide', 'workspace', 'runner', 'lsp', 'cli'], 'format/ is pure and works on the TOML syntax only.'),
    below('check', ['format', 'ide', 'workspace', 'runner', 'protocol', 'lsp', 'cli'], 'check/ produces findings from the model: no disk, no runner, no front end.'),
    below('ide', ['workspace', 'runner', 'protocol', 'lsp', 'cli'], 'ide/ answers from a method tree given to it: no disk, no session, no runner, no front end.'),
    {
      name: 'ide-speaks-no-lsp',
      severity: 'error',
      comment: 'ide/ speaks no LSP: lsp/ translates its answers.',
      from: { path: `${SRC}ide/` },
      to: { path: '(^|/)(vscode-languageserver|vscode-jsonrpc)' },
    },
    {
      name: 'lsp-through-ide-facade',
      severity: 'error',
      comment: 'lsp/ reaches the language services through ide/index.ts, the list of them.',
      from: { path: `${SRC}lsp/` },
      to: { path: `${SRC}ide/`, pathNot: `${SRC}ide/index\\.ts$` },
    },
    {
      name: 'ide-no-node-builtin',
      severity: 'error',
      comment: 'ide/ runs wherever the language does, the browser included: no Node module.',
      from: { path: `${SRC}ide/` },
      to: { dependencyTypes: ['core'] },
    },
    below('workspace', ['ide', 'runner', 'protocol', 'lsp', 'cli'], 'workspace/ reads the disk for the front ends; it runs nothing.'),
    below('runner', ['ide', 'lsp', 'cli'], 'runner/ is used by the front ends, never the reverse.'),
    below('lsp', ['cli'], 'The language server and the command line are separate front ends.'),
    {
      name: 'shared-files-import-no-layer',
      severity: 'error',
      comment: 'util/ and the root files are shared by every layer: they import none.',
      from: { path: `${SRC}(util/|version\\.ts$|heap\\.ts$)` },
      to: { path: `${SRC}(${LAYERS.join('|')})/` },
    },
    {
      name: 'server-not-client',
      severity: 'error',
      comment: 'The server never imports the VS Code extension.',
      from: { path: '^server/' },
      to: { path: '^client/' },
    },
    {
      name: 'client-only-pure-server-drawing',
      severity: 'error',
      comment: 'The extension is a separate bundle: of the server, it imports only the pure graph drawing, the wire types of the protocol and the file and folder names of the language.',
      from: { path: '^client/' },
      to: { path: '^server/', pathNot: '^server/src/(ide/graph(Layout|Svg)|util/markup|protocol/(types|browserFiles)|language/spec/(folders|manifest))\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
