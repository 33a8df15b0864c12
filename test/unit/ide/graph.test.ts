import { describe, expect, it } from 'vitest';
import { buildMethodGraph } from '../../../server/src/ide/graph.js';
import { treeOf } from '../../helpers/tree.js';

const BUNDLE = `domain = "g"
description = "Graph"

[concept.Report]
description = "A report"

[pipe.sig]
description = "A signature only"
inputs = { text = "Text" }
output = "Report"

[pipe.fan]
type = "PipeParallel"
description = "Fan out"
inputs = { text = "Text" }
output = "Report"
branches = [{ pipe = "sig", result = "a" }, { pipe = "write", result = "b" }]

[pipe.write]
type = "PipeLLM"
description = "Write"
inputs = { text = "Text" }
output = "Text"
prompt = "$text"

[pipe.each]
type = "PipeSequence"
description = "Each"
inputs = { texts = "Text[]" }
output = "Text[]"
steps = [{ pipe = "write", batch_over = "texts", batch_as = "text", result = "written" }]
`;

describe('method graph', () => {
  it('has nodes for pipes and signatures, and labelled edges', () => {
    const graph = buildMethodGraph(treeOf({ 'g.mthds': BUNDLE }));
    expect(graph.nodes.map((n) => [n.id, n.type, n.kind])).toEqual([
      ['g.sig', 'signature', 'signature'],
      ['g.fan', 'PipeParallel', 'controller'],
      ['g.write', 'PipeLLM', 'operator'],
      ['g.each', 'PipeSequence', 'controller'],
    ]);
    expect(graph.nodes[0]!.output).toEqual({ concept: 'g.Report' });
    expect(graph.edges).toEqual([
      { from: 'g.fan', to: 'g.sig', kind: 'branch', label: 'a', concept: 'g.Report' },
      { from: 'g.fan', to: 'g.write', kind: 'branch', label: 'b', concept: 'native.Text' },
      { from: 'g.each', to: 'g.write', kind: 'step', label: 'written', concept: 'native.Text[]' },
    ]);
  });

  it('attaches findings to the pipe they are in', () => {
    const tree = treeOf({ 'g.mthds': BUNDLE });
    const write = tree.bundles[0]!.pipes.find((p) => p.code === 'write')!;
    const graph = buildMethodGraph(tree, [{ file: write.bundle.file, range: write.codeRange, code: 'x.y', severity: 'error', message: 'bad' }]);
    expect(graph.nodes.find((n) => n.id === 'g.write')!.diagnostics).toEqual([{ code: 'x.y', severity: 'error', message: 'bad' }]);
    expect(graph.nodes.find((n) => n.id === 'g.fan')!.diagnostics).toEqual([]);
  });
});
