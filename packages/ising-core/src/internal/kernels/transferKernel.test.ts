import { describe, expect, it } from 'vitest';
import { createRng } from '../../rng.js';
import { bruteForceEstimate } from '../../testing/bruteForce.js';
import { createIsingBatch } from '../../batch.js';
import { runChain } from './transferKernel.js';

/** A chain of `n` spins with bandwidth `w` as a kernel problem and as a one-problem batch (for the reference). */
function chain(seed: number, n: number, w: number) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal() * 1.5);
  const couplings = new Float64Array(n * n);
  const band = new Float64Array(n * w);
  for (let t = 0; t < n; t++) {
    for (let b = Math.max(0, w - t); b < w; b++) {
      const v = rng.normal() * 0.7;
      band[t * w + b] = v;
      couplings[(t - w + b) * n + t] = v;
    }
  }
  const beta = 0.8;
  return {
    problem: { n, window: w, beta, fields, band },
    batch: createIsingBatch({ fields, couplings, spins: [n], stride: n, beta }),
  };
}

describe('runChain', () => {
  it('should equal brute force in both number domains, with all backward messages stored or checkpointed', () => {
    for (const [n, w] of [
      [1, 0],
      [7, 2],
      [12, 4],
      [16, 5],
    ] as const) {
      const { problem, batch } = chain(n * 10 + w, n, w);
      const grad = Float64Array.from({ length: n }, (_, i) => Math.sin(3 * i + 1));
      const ref = bruteForceEstimate(batch);
      const refGrad = ref.vjp(grad);
      const stored = runChain(problem, grad, { domain: 'log' });
      for (const [domain, budget] of [
        ['log', undefined],
        ['log', 1], // segments of ⌈√n⌉ positions
        ['linear', undefined],
        ['linear', 1],
        ['auto', undefined],
      ] as const) {
        const what = `n=${n} w=${w} ${domain} budget ${budget ?? 'default'}`;
        const got = runChain(problem, grad, { domain, messageBudget: budget });
        for (let t = 0; t < n; t++) {
          expect(
            Math.abs(got.magnetization[t]! - ref.magnetization[t]!),
            `${what}: m[${t}]`,
          ).toBeLessThan(1e-12);
          expect(
            Math.abs(got.fieldGrad![t]! - refGrad.fields[t]!),
            `${what}: ∂L/∂h[${t}]`,
          ).toBeLessThan(1e-12);
          for (let b = Math.max(0, w - t); b < w; b++) {
            expect(
              Math.abs(got.bandGrad![t * w + b]! - refGrad.couplings[(t - w + b) * n + t]!),
              `${what}: ∂L/∂J[${t - w + b},${t}]`,
            ).toBeLessThan(1e-12);
          }
        }
        expect(Math.abs(got.logPartition - stored.logPartition), `${what}: log Z`).toBeLessThan(
          1e-12,
        );
        // The forward pass alone gives the same magnetizations as the pass with tangents.
        expect(
          runChain(problem, undefined, { domain, messageBudget: budget }).magnetization,
          what,
        ).toEqual(got.magnetization);
      }
    }
  });

  it('should give the same answers in the linear and the log domain on a long chain (n = 300, w = 6, checkpointed)', () => {
    const { problem } = chain(9, 300, 6);
    const grad = Float64Array.from({ length: 300 }, (_, i) => Math.cos(i));
    const log = runChain(problem, grad, { domain: 'log', messageBudget: 1 });
    const lin = runChain(problem, grad, { domain: 'linear' });
    const close = (a: Float64Array, b: Float64Array, what: string): void => {
      for (let i = 0; i < a.length; i++)
        expect(Math.abs(a[i]! - b[i]!), `${what}[${i}]`).toBeLessThan(1e-11);
    };
    close(lin.magnetization, log.magnetization, 'm');
    close(lin.fieldGrad!, log.fieldGrad!, '∂L/∂h');
    close(lin.bandGrad!, log.bandGrad!, '∂L/∂J');
    expect(Math.abs(lin.logPartition - log.logPartition)).toBeLessThan(
      1e-9 * Math.abs(log.logPartition),
    );
  });
});
