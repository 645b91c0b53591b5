// The root README's "Writing a sampler plugin" example, kept here so it is known to work.
import { assertPluginOptions, createRng, defineSamplerPlugin, sampleExact } from './index.js';
import type { IsingBatch, SampleSet } from './index.js';
import { describeSamplerConformance } from './testing/vitest.js';

const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };

const shotsSampler = defineSamplerPlugin<{ shots?: number; seed?: number }>({
  name: 'my-exact-shots',
  version: '1.0.0',
  capabilities,
  create: (options = {}) => {
    assertPluginOptions('my-exact-shots', options, ['shots', 'seed']); // a misspelt key fails loudly
    const { shots = 4000, seed = 0 } = options;
    const rng = createRng(seed);
    return {
      name: 'my-exact-shots',
      capabilities,
      sample(batch: IsingBatch) {
        const sets: SampleSet[] = [];
        for (let q = 0; q < batch.size; q++) {
          const n = batch.spins[q]!;
          const fields = batch.fields.subarray(q * batch.stride, q * batch.stride + n);
          sets.push(
            sampleExact(fields, batch.couplings, shots, rng, { spins: n, beta: batch.beta }),
          );
        }
        return { kind: 'samples', sets };
      },
    };
  },
});

describeSamplerConformance(shotsSampler, { createOptions: { shots: 20000 } });
