import { describe, expect, it } from 'vitest';
import { ConceptCatalog } from '../../../server/src/language/jsonSchema.js';
import { dryRunAfterChecks, dryRunTree } from '../../../server/src/runner/dryRun.js';
import { checkTree } from '../../../server/src/check/index.js';
import { validateContents } from '../../../server/src/runner/validate.js';
import { dryRun } from '../../../server/src/runner/dryRun.js';
import { HEADER, treeOf } from '../../helpers/tree.js';

async function dry(text: string, allowSignatures = false) {
  const tree = treeOf({ 'main.mthds': text });
  return dryRunTree(tree, new ConceptCatalog(tree), { allowSignatures });
}

describe('the dry run', () => {
  it('runs every pipe on minted inputs, with mocks for what cannot run here', async () => {
    const text = `${HEADER}[concept.Memo]\ndescription = "m"\n[concept.Memo.structure]\ntitle = { type = "text", description = "t", required = true }\n
[pipe.write]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "Memo"\nprompt = "About $topic"\n
[pipe.shape]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { memo = "Memo" }\noutput = "Text"\nfunction_name = "shape"\n
[pipe.all]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "Text"\nsteps = [{ pipe = "write", result = "memo" }, { pipe = "shape", result = "out" }]\n`;
    const report = await dry(text);
    expect(report.findings).toEqual([]);
    expect(report.validatedPipes.map((p) => [p.pipe_ref, p.status])).toEqual([['demo.write', 'SUCCESS'], ['demo.shape', 'SUCCESS'], ['demo.all', 'SUCCESS']]);
  });

  it('reports a template that fails to render at the innermost pipe', async () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "{{ doc.missing|tag }}"\n`;
    const [f] = (await dry(text)).findings;
    expect(f?.code).toBe('method.template_invalid');
    expect(f?.params['pipe']).toBe('p');
  });

  it('raises method.mock_unsatisfiable for a concept no value satisfies', async () => {
    const concept = (dflt: string) => `${HEADER}[concept.Shade]\ndescription = "s"\n[concept.Shade.structure]\nshade = { description = "s", choices = ["red"], default_value = "${dflt}" }\n[pipe.p]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Shade"\nprompt = "$a"\n`;
    const bad = await dry(concept('blue'));
    expect(bad.findings.map((f) => [f.code, f.params['concept']])).toEqual([['method.mock_unsatisfiable', 'demo.Shade']]);
    expect((await dry(concept('red'))).findings).toEqual([]);
  });

  it('plugs into /validate: a verdict with validated_pipes', async () => {
    const text = `${HEADER}[pipe.p]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "$doc"\n`;
    const verdict = await validateContents({ kind: 'contents', contents: [text] }, { dryRun });
    expect(verdict.is_valid).toBe(true);
    expect((verdict as unknown as { validated_pipes: unknown[] }).validated_pipes).toEqual([{ pipe_ref: 'demo.p', status: 'SUCCESS' }]);
  });

  it('runs after the static checks only when they found no error (mthds check and the editor)', async () => {
    const pipe = `[pipe.p]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "{{ doc.missing|tag }}"\n`;
    const clean = treeOf({ 'main.mthds': `${HEADER}${pipe}` });
    expect(checkTree(clean)).toEqual([]);
    expect((await dryRunAfterChecks(clean, checkTree(clean))).map((f) => f.code)).toEqual(['method.template_invalid']);
    const broken = treeOf({ 'main.mthds': `${HEADER}${pipe}[pipe.q]\ntype = "PipeLMM"\ndescription = "d"\noutput = "Text"\n` });
    const staticFindings = checkTree(broken);
    expect(staticFindings.some((f) => f.severity === 'error')).toBe(true);
    expect(await dryRunAfterChecks(broken, staticFindings)).toEqual([]);
  });

  it('stops when its signal aborts', async () => {
    const pipes = Array.from({ length: 50 }, (_, i) => `[pipe.p${i}]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\ntemplate = "$doc"\n`).join('');
    const tree = treeOf({ 'main.mthds': `${HEADER}${pipes}` });
    const controller = new AbortController();
    const run = dryRunTree(tree, new ConceptCatalog(tree), { signal: controller.signal });
    controller.abort(new Error('a newer version'));
    await expect(run).rejects.toThrow('a newer version');
    expect((await dryRunTree(tree, new ConceptCatalog(tree), { signal: new AbortController().signal })).validatedPipes).toHaveLength(50);
  });
});
