import { afterAll, describe, expect, it } from 'vitest';
import { causalBoltzmann, causalBoltzmannAsync, disposeExactWorkers } from './index.js';
import type { CausalVariant } from './index.js';
import { randomInputs } from './internal/testing/causalInputs.js';
import { close } from './internal/testing/close.js';
import { codeOf } from './testing/thrownErrors.js';

afterAll(() => disposeExactWorkers());

describe('causalBoltzmann', () => {
  it('the multi-threaded ops (synchronous and async) equal the single-thread one', async () => {
    const shape = { batch: 3, length: 11 };
    const { fields, couplings, upstream } = randomInputs(13, 3, 11, 1, 0.5);
    const sync = causalBoltzmann(fields, couplings, shape, { threads: 1 });
    const [a] = [sync.backward(upstream)];
    for (const par of [
      causalBoltzmann(fields, couplings, shape, { threads: 2 }),
      await causalBoltzmannAsync(fields, couplings, shape, { threads: 2 }),
    ]) {
      expect(Array.from(par.weights)).toEqual(Array.from(sync.weights));
      const b = await par.backward(upstream);
      expect(Array.from(b.fields)).toEqual(Array.from(a.fields));
      close(b.couplings, a.couplings, 1e-12, 1e-14);
    }
    const sig = await causalBoltzmannAsync(fields, couplings, shape, { variant: 'sigmoid' });
    expect(Array.from(sig.weights)).toEqual(
      Array.from(causalBoltzmann(fields, couplings, shape, { variant: 'sigmoid' }).weights),
    );
  });

  it("threads: 'auto' splits a large batch (≥ 2^24 configurations) and agrees with one thread", () => {
    const shape = { batch: 129, length: 16 };
    const { fields, couplings, upstream } = randomInputs(14, 129, 16, 1, 0.3);
    const one = causalBoltzmann(fields, couplings, shape, { threads: 1 });
    const auto = causalBoltzmann(fields, couplings, shape);
    expect(Array.from(auto.weights)).toEqual(Array.from(one.weights));
    const [a, b] = [one.backward(upstream), auto.backward(upstream)];
    expect(Array.from(b.fields)).toEqual(Array.from(a.fields));
    close(b.couplings, a.couplings, 1e-12, 1e-14);
  });

  it('rejects bad input with coded errors', async () => {
    const shape = { batch: 2, length: 3 };
    const ok = new Float64Array(18);
    const J = new Float64Array(9);
    expect(
      codeOf(() =>
        causalBoltzmann(
          ok.map((v, i) => (i === 4 ? Number.NaN : v)),
          J,
          shape,
        ),
      ),
    ).toBe('ISING_NOT_FINITE');
    // NaN above the diagonal is ignored, like every entry with j > i.
    expect(
      codeOf(() =>
        causalBoltzmann(
          ok.map((v, i) => (i === 1 ? Number.NaN : v)),
          J,
          shape,
        ),
      ),
    ).toBe('no error');
    expect(codeOf(() => causalBoltzmann(new Float64Array(17), J, shape))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(codeOf(() => causalBoltzmann(ok, new Float64Array(8), shape))).toBe(
      'ISING_SHAPE_MISMATCH',
    );
    expect(codeOf(() => causalBoltzmann(ok, J, { batch: 0, length: 3 }))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(
      codeOf(() => causalBoltzmann(ok, J, shape, { variant: 'softmax' as CausalVariant })),
    ).toBe('ISING_INVALID_ARGUMENT');
    expect(codeOf(() => causalBoltzmann(ok, J, shape, { beta: Number.NaN }))).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    expect(codeOf(() => causalBoltzmann(ok, J, shape, { maxSpins: 2 }))).toBe(
      'ISING_TOO_MANY_SPINS',
    );
    expect(codeOf(() => causalBoltzmann(ok, J, shape, { variant: 'sigmoid', maxSpins: 2 }))).toBe(
      'no error',
    );
    expect(
      codeOf(() =>
        causalBoltzmann(new Float64Array(25 * 25), new Float64Array(25 * 25), {
          batch: 1,
          length: 25,
        }),
      ),
    ).toBe('ISING_TOO_MANY_SPINS');
    const { backward } = causalBoltzmann(ok, J, shape);
    expect(codeOf(() => backward(new Float64Array(5)))).toBe('ISING_SHAPE_MISMATCH');
    expect(codeOf(() => backward(new Float64Array(18).fill(Infinity)))).toBe('ISING_NOT_FINITE');
    await expect(causalBoltzmannAsync(ok, J, shape, { threads: -1 })).rejects.toMatchObject({
      code: 'ISING_INVALID_ARGUMENT',
    });
  });
});
