import { thrownBy } from './testing/index.js';
import { describe, expect, it } from 'vitest';
import { causalBatch, createRng, estimateBatch } from './index.js';
import type { BatchEstimate, IsingBatch, IsingGradients, Sampler } from './index.js';

const caps: Sampler['capabilities'] = {
  exact: false,
  maxSpins: 8,
  async: false,
  deterministic: true,
};

function batchOf(seed: number): IsingBatch {
  const rng = createRng(seed);
  return causalBatch(
    Float64Array.from({ length: 2 * 16 }, () => rng.normal()),
    Float64Array.from({ length: 16 }, () => rng.normal() * 0.5),
    { batch: 2, length: 4 },
  );
}

const zeros = (batch: IsingBatch): IsingGradients => ({
  fields: new Float64Array(batch.size * batch.stride),
  couplings: new Float64Array(batch.stride ** 2),
});

/** A sampler whose estimate has magnetization `m` everywhere and whose VJP answers `vjp(grad)`. */
function answering(
  batch: IsingBatch,
  vjp: (grad: Float64Array) => unknown,
  m = 0.1,
  name = 'plug',
): Sampler {
  return {
    name,
    capabilities: caps,
    estimate: () => ({
      magnetization: new Float64Array(batch.size * batch.stride).fill(m),
      vjp: vjp as BatchEstimate['vjp'],
    }),
  };
}

const thrown = thrownBy;

describe('estimateBatch: checks what a sampler returns', () => {
  it('should refuse magnetizations outside [−1, 1], naming the sampler, problem and spin', () => {
    const batch = batchOf(1);
    const bad = answering(batch, () => zeros(batch), 5);
    const error = thrown(() => estimateBatch(bad, batch));
    expect(error.code).toBe('ISING_SAMPLER_FAILED');
    expect(error.message).toMatch(/sampler "plug" returned magnetization 5 for problem 0, spin 0/);
    expect(
      thrown(() =>
        estimateBatch(
          answering(batch, () => zeros(batch), -1.001),
          batch,
        ),
      ).code,
    ).toBe('ISING_SAMPLER_FAILED');
    // Rounding slack: ±(1 + 1e-12) is accepted and returned unchanged.
    const edge = estimateBatch(
      answering(batch, () => zeros(batch), 1 + 1e-12),
      batch,
    ) as BatchEstimate;
    expect(edge.magnetization[0]).toBe(1 + 1e-12);
  });

  it('should refuse a probabilityUp of the wrong length, non-finite, or apart from its magnetization', () => {
    const batch = batchOf(3);
    const n = batch.size * batch.stride;
    const withUp = (up: unknown): Sampler => ({
      name: 'plug',
      capabilities: caps,
      estimate: () => ({
        magnetization: new Float64Array(n).fill(0.1),
        probabilityUp: up as Float64Array, // a hostile plugin's, of any type
        vjp: () => zeros(batch),
      }),
    });
    const code = (up: unknown) => thrown(() => estimateBatch(withUp(up), batch)).code;
    expect(code(new Float64Array(n - 1).fill(0.55))).toBe('ISING_SHAPE_MISMATCH');
    expect(code([0.55])).toBe('ISING_SHAPE_MISMATCH');
    expect(code(new Float64Array(n).fill(Number.NaN))).toBe('ISING_NOT_FINITE');
    const apart = thrown(() => estimateBatch(withUp(new Float64Array(n).fill(0.9)), batch));
    expect(apart.code).toBe('ISING_SAMPLER_FAILED');
    expect(apart.message).toMatch(
      /probabilityUp 0\.9 for problem 0, spin 0 beside magnetization 0\.1/,
    );
    // 2P − 1 = m to rounding passes through, untouched.
    const up = new Float64Array(n).fill(0.55);
    const ok = estimateBatch(withUp(up), batch) as BatchEstimate & { probabilityUp: Float64Array };
    expect(ok.probabilityUp).toBe(up);
  });

  it('should refuse a VJP of NaNs with ISING_NOT_FINITE saying sampler "<name>" vjp', () => {
    const batch = batchOf(2);
    const nan = (): IsingGradients => ({
      fields: new Float64Array(batch.size * batch.stride).fill(Number.NaN),
      couplings: new Float64Array(16),
    });
    const estimate = estimateBatch(answering(batch, nan), batch) as BatchEstimate;
    const error = thrown(() => estimate.vjp(new Float64Array(batch.size * batch.stride)));
    expect(error.code).toBe('ISING_NOT_FINITE');
    expect(error.message).toMatch(
      /^sampler "plug" vjp returned fields\[0\] = NaN \(problem 0, spin 0\)/,
    );
    const badJ = (): IsingGradients => {
      const g = zeros(batch);
      g.couplings[1 * 4 + 3] = Number.POSITIVE_INFINITY; // J_1,3 is used by the 4-spin problems
      return g;
    };
    const jError = thrown(() =>
      (estimateBatch(answering(batch, badJ), batch) as BatchEstimate).vjp(new Float64Array(32)),
    );
    expect(jError.code).toBe('ISING_NOT_FINITE');
    expect(jError.message).toMatch(
      /sampler "plug" vjp returned couplings\[7\] = Infinity \(J_1,3\)/,
    );
  });

  it('should ignore non-finite entries a problem does not use (beyond its spins, lower triangle)', () => {
    const batch = batchOf(3);
    const padded = (): IsingGradients => {
      const g = zeros(batch);
      g.fields[1] = Number.NaN; // problem 0 has 1 spin: fields[1] is padding
      g.couplings[3 * 4 + 1] = Number.NaN; // lower triangle
      return g;
    };
    const estimate = estimateBatch(answering(batch, padded), batch) as BatchEstimate;
    expect(Number.isNaN(estimate.vjp(new Float64Array(32)).fields[1])).toBe(true);
  });

  it('should refuse a VJP answer of the wrong shape or type with ISING_SHAPE_MISMATCH / ISING_SAMPLER_FAILED', () => {
    const batch = batchOf(4);
    const grad = new Float64Array(32);
    const codeAndMessage = (vjp: (grad: Float64Array) => unknown): [string | undefined, string] => {
      const error = thrown(() =>
        (estimateBatch(answering(batch, vjp), batch) as BatchEstimate).vjp(grad),
      );
      return [error.code, error.message];
    };
    const short = codeAndMessage(() => ({
      fields: new Float64Array(3),
      couplings: new Float64Array(16),
    }));
    expect(short[0]).toBe('ISING_SHAPE_MISMATCH');
    expect(short[1]).toMatch(
      /sampler "plug" vjp returned fields with 3 entries; 8 problems × stride 4 needs a Float64Array of 32/,
    );
    expect(
      codeAndMessage(() => ({ fields: new Float64Array(32), couplings: new Float64Array(15) }))[0],
    ).toBe('ISING_SHAPE_MISMATCH');
    expect(
      codeAndMessage(() => ({ fields: Array(32).fill(0), couplings: new Float64Array(16) }))[0],
    ).toBe('ISING_SHAPE_MISMATCH');
    expect(codeAndMessage(() => undefined)[0]).toBe('ISING_SAMPLER_FAILED');
    expect(codeAndMessage(() => Promise.resolve(zeros(batch)))[0]).toBe('ISING_SAMPLER_FAILED');
    const boom = codeAndMessage(() => {
      throw new RangeError('index out of range');
    });
    expect(boom).toEqual(['ISING_SAMPLER_FAILED', 'sampler "plug" vjp failed: index out of range']);
  });

  it('should check the upstream gradient, then pass that very array through unchanged', () => {
    const batch = batchOf(5);
    const seen: Float64Array[] = [];
    const estimate = estimateBatch(
      answering(batch, (g) => {
        seen.push(g);
        return zeros(batch);
      }),
      batch,
    ) as BatchEstimate;
    const grad = Float64Array.from({ length: 32 }, (_, i) => i / 7);
    const copy = grad.slice();
    estimate.vjp(grad);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(grad);
    expect(grad).toEqual(copy);
    expect(thrown(() => estimate.vjp(new Float64Array(5))).code).toBe('ISING_SHAPE_MISMATCH');
    const nan = new Float64Array(32);
    nan[0] = Number.NaN;
    const error = thrown(() => estimate.vjp(nan));
    expect(error.code).toBe('ISING_NOT_FINITE');
    expect(error.message).toMatch(/sampler "plug" vjp: gradMagnetization\[0\]/);
    expect(seen).toHaveLength(1);
  });

  it('should keep the other properties of the sampler’s estimate and not modify it', () => {
    const batch = batchOf(6);
    const vjp = (): IsingGradients => zeros(batch);
    const own = { magnetization: new Float64Array(32), logPartition: Float64Array.of(1), vjp };
    const result = estimateBatch(
      { name: 'extra', capabilities: caps, estimate: () => own },
      batch,
    ) as BatchEstimate & { logPartition: Float64Array };
    expect(result.logPartition).toBe(own.logPartition);
    expect(result.magnetization).toBe(own.magnetization);
    expect(own.vjp).toBe(vjp);
  });

  it('should check the VJPs of asynchronous samplers too', async () => {
    const batch = batchOf(7);
    const nan = (): IsingGradients => ({
      fields: new Float64Array(32).fill(Number.NaN),
      couplings: new Float64Array(16),
    });
    const remote: Sampler = {
      name: 'remote',
      capabilities: { ...caps, async: true },
      estimate: async () => ({ magnetization: new Float64Array(32), vjp: nan }),
    };
    const estimate = await estimateBatch(remote, batch);
    expect(thrown(() => estimate.vjp(new Float64Array(32))).message).toMatch(
      /^sampler "remote" vjp returned fields\[0\] = NaN/,
    );
  });
});
