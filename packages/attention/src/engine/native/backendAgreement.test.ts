// The native and the WebAssembly engine side by side: from the same weights and batch, the same
// loss and every gradient to float32 tolerance, for every variant, on a model wide enough for
// every vector width (d = 64, 4 heads, FFN 256, T = 12). The two sum in different orders (16 or
// 8 lanes against 4, FMA against mul + add), so they agree to rounding, not bit for bit: the loss
// to 1e-5 relative, each gradient to 2e-4 of its largest entry (what float32 sums over ~10³ terms
// through two layers allow; the engine-vs-tfjs tests use 5e-5 on a smaller model). Measured on
// AVX-512 (6 Dec 2026): loss within 5e-9, gradients within 5.9e-5 (softmax) to 8.5e-7 (coupling).
import { describe, expect, it } from 'vitest';
import { createTransformer } from '../../index.js';
import type { TransformerConfig } from '../../index.js';
import { createReferenceSampler } from '../../testing/referenceSampler.js';
import { itWithoutAddon } from '../../testing/nativeKernels.js';
import { randomTokens } from '../../testing/testUtils.js';
import { createEngine } from '../engine.js';
import { loadNativeAddon } from './nativeAddon.js';

const loaded = loadNativeAddon();

const base: TransformerConfig = {
  vocabSize: 33,
  maxLength: 12,
  dModel: 64,
  ffnHidden: 256,
  heads: 4,
  layers: 2,
  seed: 5,
  jInitStd: 0.3,
};

async function lossAndGrads(config: TransformerConfig, backend: 'native' | 'wasm') {
  const model = createTransformer(config);
  const engine = createEngine(model.config, { backend, sampler: model.sampler });
  try {
    for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
    const [b, t] = [6, 12];
    const inputs = randomTokens(b * t, config.vocabSize, 3);
    const targets = randomTokens(b * t, config.vocabSize, 4);
    const mask = Float32Array.from({ length: b * t }, (_, i) => (i % 7 === 3 ? 0 : 1));
    const loss = await engine.lossAndGradients({ inputs, batchSize: b, step: 1 }, targets, mask);
    const grads = Object.fromEntries(
      model.parameters.map((p) => [p.name, Float32Array.from(engine.view(p.name, 'grads'))]),
    );
    return { loss, grads, backend: engine.backend };
  } finally {
    await engine.dispose();
    model.dispose();
  }
}

describe('native and wasm engines agree', () => {
  if (loaded.addon === undefined) {
    itWithoutAddon('native and wasm engines agree', loaded.reason);
    return;
  }
  const variants: [string, () => TransformerConfig][] = [
    ['softmax', () => ({ ...base, variant: 'softmax' })],
    ['sigmoid', () => ({ ...base, variant: 'sigmoid' })],
    ['boltzmann', () => ({ ...base, variant: 'boltzmann', sampler: createReferenceSampler() })],
    ['coupling', () => ({ ...base, variant: 'coupling', sampler: createReferenceSampler() })],
  ];
  for (const [name, config] of variants)
    it(`${name}, dropout 0.1: loss and every gradient`, async () => {
      const withDropout = { ...config(), dropout: 0.1 };
      const native = await lossAndGrads(withDropout, 'native');
      const wasm = await lossAndGrads({ ...config(), dropout: 0.1 }, 'wasm');
      expect(native.backend.name).toBe('native');
      expect(wasm.backend.name).toBe('wasm');
      expect(Math.abs(native.loss - wasm.loss)).toBeLessThan(1e-5 * Math.abs(wasm.loss));
      for (const [param, want] of Object.entries(wasm.grads)) {
        const got = native.grads[param]!;
        let [scale, diff] = [1e-6, 0];
        for (let i = 0; i < want.length; i++) {
          scale = Math.max(scale, Math.abs(want[i]!));
          diff = Math.max(diff, Math.abs(got[i]! - want[i]!));
        }
        expect(diff / scale, param).toBeLessThan(2e-4);
      }
    });
});
