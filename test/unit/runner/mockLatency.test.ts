// The mock provider's latency: the deck setting, else MTHDS_MOCK_LATENCY_MS; every call waits it,
// and a cancelled call stops waiting at once.

import { describe, expect, it } from 'vitest';
import { mockLatencyMs } from '../../../server/src/runner/deck.js';
import { resolveConfig } from '../../../server/src/runner/config.js';
import { MockProvider } from '../../../server/src/runner/providers/mock.js';
import type { TextRequest } from '../../../server/src/runner/providers/types.js';

function call(signal: AbortSignal): TextRequest {
  return { model: { name: 'mock-llm', type: 'llm', provider: 'mock', modelId: 'mock-llm' }, seed: 's', signal, settings: {}, prompt: 'hi', attachments: [] };
}

describe('mock latency', () => {
  it('reads the deck setting first, then MTHDS_MOCK_LATENCY_MS; anything else is 0', () => {
    expect(mockLatencyMs({ mock_latency_ms: 40 }, { MTHDS_MOCK_LATENCY_MS: '900' })).toBe(40);
    expect(mockLatencyMs({}, { MTHDS_MOCK_LATENCY_MS: '900' })).toBe(900);
    expect(mockLatencyMs({}, {})).toBe(0);
    expect(mockLatencyMs({}, { MTHDS_MOCK_LATENCY_MS: 'soon' })).toBe(0);
    expect(() => resolveConfig({ models: { mock_latency_ms: -1 } })).toThrow(/mock_latency_ms/);
  });

  it('makes every call take the latency, and stops waiting when the call is cancelled', async () => {
    const provider = new MockProvider(150);
    const started = Date.now();
    expect(await provider.generateText(call(new AbortController().signal))).toMatch(/^Mock /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const controller = new AbortController();
    const pending = provider.generateText(call(controller.signal));
    const cancelledAt = Date.now();
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(Date.now() - cancelledAt).toBeLessThan(100);
    const instant = new MockProvider();
    const t = Date.now();
    await instant.generateText(call(new AbortController().signal));
    expect(Date.now() - t).toBeLessThan(100);
  });
});
