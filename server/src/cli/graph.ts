// `mthds graph [paths...] --format mermaid|dot|json|svg|html`: the method graph of each tree named
// (the same graph the editor's `mthds/methodGraph` request returns), for docs, reviews and CI.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkTree } from '../check/index.js';
import { buildMethodGraph } from '../ide/graph.js';
import { computeLineStarts, offsetToPosition } from '../syntax/positions.js';
import { loadTree, planTrees } from '../workspace/load.js';
import { toDot, toMermaid, type NamedGraph } from './graphFormat.js';
import { toHtml, toSvg } from './graphPicture.js';
import { nodeFileSystem } from '../workspace/nodeFileSystem.js';

interface Writable {
  write(text: string): unknown;
}

const FORMATS = ['mermaid', 'dot', 'json', 'svg', 'html'] as const;

export const GRAPH_OPTIONS = {
  format: { type: 'string', default: 'mermaid' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const GRAPH_USAGE = `Usage: mthds graph [options] [paths...]

Prints the method graph of each tree named (default: the current folder): pipes as nodes,
controllers' calls (steps, parallel branches, condition outcomes, batches) as edges labelled with
the result and the concept they carry. Pipes with findings are marked. Nothing is run.

Options:
  --format FORMAT     mermaid (default): a Mermaid flowchart (Markdown, GitHub);
                      dot: Graphviz DOT; json: { trees: [{ root, nodes, edges }] };
                      svg: a picture, drawn here (no Graphviz needed);
                      html: a standalone page with the same picture (no script, no network).
  -h, --help          Show this help.

Exit status:
  0  the graph was printed (findings in the method do not change it)
  2  usage error, a path that does not exist (the others are still drawn), or no bundle found

Examples:
  mthds graph examples/news
  mthds graph --format svg examples/invoices > invoices.svg
  mthds graph --format html . > graph.html`;

export async function runGraph(args: string[], stdout: Writable, stderr: Writable): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: GRAPH_OPTIONS });
  } catch (error) {
    stderr.write(`mthds graph: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (parsed.values.help) {
    stdout.write(`${GRAPH_USAGE}\n`);
    return 0;
  }
  const format = FORMATS.find((f) => f === parsed.values.format);
  if (format === undefined) {
    stderr.write(`mthds graph: unknown format '${parsed.values.format}' (expected ${FORMATS.join(', ')})\n`);
    return 2;
  }
  const { plans, problems } = planTrees(nodeFileSystem, parsed.positionals.length > 0 ? parsed.positionals : ['.']);
  for (const p of problems) stderr.write(`mthds graph: ${p.path}: ${p.message}\n`);
  if (plans.length === 0) return 2;
  // A path that does not exist fails the command even when the others are drawn (a typo in CI).
  const missing = problems.some((p) => p.missing);
  const graphs: Array<NamedGraph & { root: string; texts: Map<string, string> }> = [];
  for (const plan of plans) {
    const { tree, findings } = loadTree(nodeFileSystem, plan);
    // Files not read (FIFOs, devices, links, unreadable folders): said, never dropped in silence.
    for (const f of findings) if (f.code === 'method.package_invalid') stderr.write(`mthds graph: ${display(f.file)}: ${f.message}\n`);
    if (tree.bundles.length === 0) continue;
    const graph = buildMethodGraph(tree, [...findings, ...checkTree(tree)]);
    const texts = new Map(tree.bundles.map((b) => [b.file, b.doc.text] as const));
    // A lone bundle is named by its file; a package or a folder by its path.
    const title = !plan.manifestFile && plan.bundleFiles.length === 1 ? display(plan.bundleFiles[0]!) : display(plan.root) || '.';
    graphs.push({ title, root: plan.root, graph, texts });
  }
  if (graphs.length === 0) {
    stderr.write('mthds graph: no bundles found\n');
    return 2;
  }
  if (format === 'mermaid') stdout.write(toMermaid(graphs));
  else if (format === 'dot') stdout.write(toDot(graphs));
  else if (format === 'svg') stdout.write(toSvg(graphs));
  else if (format === 'html') stdout.write(toHtml(graphs));
  else stdout.write(`${JSON.stringify({ trees: graphs.map(toJson) }, null, 2)}\n`);
  return missing ? 2 : 0;
}

function toJson(g: NamedGraph & { root: string; texts: Map<string, string> }): Record<string, unknown> {
  return {
    root: display(g.root),
    nodes: g.graph.nodes.map((n) => {
      const text = g.texts.get(n.file) ?? '';
      const starts = computeLineStarts(text);
      const a = offsetToPosition(starts, n.range.start);
      const b = offsetToPosition(starts, n.range.end);
      return { ...n, file: display(n.file), line: a.line + 1, column: a.character + 1, range: { start: a, end: b } };
    }),
    edges: g.graph.edges,
  };
}

function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return (rel.startsWith('..') || path.isAbsolute(rel) ? file : rel).split(path.sep).join('/');
}
