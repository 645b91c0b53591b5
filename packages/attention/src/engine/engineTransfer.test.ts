// Boltzmann attention through the engine's transfer-matrix kernels (transferOp.ts): the engine
// with the transfer matrix in float32 against the tfjs model, whose op runs ising-core's sampler
// (float64 messages), for banded:w couplings (w = 4, 6, 8, 10) and relative ones; that the kernels
// ran where the backend has them; and the rows the kernels leave handed to the sampler.
import { transferMatrixSampler } from '@boltzmann/ising-core';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransformer, initBackend, maskedCrossEntropy } from '../index.js';
import type { CouplingForm, TransformerConfig } from '../index.js';
import { gpt, randomTokens } from '../testing/testUtils.js';
import { testEngineBackend } from '../testing/engineBackend.js';
import { createEngine } from './engine.js';
import { gradientErrors, scaleWeights } from '../testing/engineAgainstTfjs.js';
import type { TransferOperands } from './transfer.js';

/**
 * The engine's loss and gradients (with every transfer-kernel call counted) and the tfjs model's
 * from the same weights: the loss's relative difference and each parameter's largest gradient
 * difference relative to its largest entry.
 */
async function compareWithTfjs(config: TransformerConfig, b: number, t: number, scale: number) {
  const model = createTransformer({ jInitStd: 0.5, ...config });
  try {
    scaleWeights(model, scale);
    const engine = createEngine(model.config, {
      backend: testEngineBackend(),
      sampler: model.sampler,
    });
    for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync());
    const calls = { forward: 0, backward: 0, left: 0 };
    const kernels = engine.kernels.transfer as
      | { transferForward(a: TransferOperands): number; transferBackward(a: unknown): void }
      | undefined;
    if (kernels) {
      const { transferForward, transferBackward } = kernels;
      kernels.transferForward = (a) => {
        calls.forward++;
        const left = transferForward(a);
        calls.left += left;
        return left;
      };
      kernels.transferBackward = (a) => {
        calls.backward++;
        transferBackward(a as never);
      };
    }
    const inputs = randomTokens(b * t, model.config.vocabSize, 11);
    const targets = randomTokens(b * t, model.config.outputSize, 12);
    const mask = new Float32Array(b * t).fill(1);
    const { value, grads } = tf.variableGrads(
      () => maskedCrossEntropy(model.logits(inputs, b), targets, mask),
      model.parameters.map((p) => p.variable),
    );
    const loss = await engine.lossAndGradients({ inputs, batchSize: b }, targets, mask);
    const reference = value.dataSync()[0]!;
    const errors = gradientErrors(model, grads, (name) => engine.view(name, 'grads'));
    const gradient = Math.max(...errors.map(([, e]) => e));
    tf.dispose([value, ...Object.values(grads)]);
    engine.dispose();
    return {
      loss: Math.abs(loss - reference) / Math.abs(reference),
      gradient,
      calls,
      hasKernels: kernels !== undefined,
    };
  } finally {
    model.dispose();
  }
}

describe("the engine's transfer-matrix kernels", () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => {} });
  });

  const cases: [CouplingForm, number][] = [
    ['banded:4', 4],
    ['banded:6', 6],
    ['banded:8', 8],
    ['banded:10', 10],
    ['relative', 11],
  ];
  for (const [couplingForm, bandwidth] of cases)
    it(`${couplingForm}: the loss of the tfjs model's float64 sampler path, on the kernels where the backend has them`, async () => {
      const sampler = transferMatrixSampler.create({ bandwidth, precision: 'float32' });
      // J ~ N(0, 0.3²): every coupling within the float32 kernels' bound of 1.5 a coupling (5σ),
      // so every row runs in the kernels on both backends (the WAT has no float64 pass).
      const config = {
        ...gpt,
        maxLength: 12,
        variant: 'boltzmann' as const,
        couplingForm,
        sampler,
        jInitStd: 0.3,
      };
      const { loss, gradient, calls, hasKernels } = await compareWithTfjs(config, 3, 12, 8);
      expect(loss).toBeLessThan(1e-5);
      expect(gradient).toBeLessThan(2e-4);
      if (hasKernels) expect(calls).toEqual({ forward: gpt.layers, backward: gpt.layers, left: 0 });
    });

  it('hands rows beyond the float32 range to the sampler, with the same loss', async () => {
    const sampler = transferMatrixSampler.create({ bandwidth: 4, precision: 'float32' });
    const config = {
      ...gpt,
      maxLength: 10,
      variant: 'boltzmann' as const,
      couplingForm: 'banded:4' as const,
      sampler,
    };
    // Couplings past the kernels' bounds (J ~ N(0, 12²): keys' β Σ|J| to ~80, past 40 natively
    // and 12 on WebAssembly). Tiny Σα left to the sampler is ising-core's to test
    // (tinyAlphaRows.test.ts: its probabilityUp and centered VJP).
    const { loss, gradient, calls, hasKernels } = await compareWithTfjs(
      { ...config, jInitStd: 12 },
      3,
      10,
      1,
    );
    expect(loss).toBeLessThan(1e-5);
    expect(gradient).toBeLessThan(2e-4);
    if (hasKernels) expect(calls.left).toBeGreaterThan(0);
  });
});
