// A third-party sampler plugin: the module's default export is the plugin.
// It draws `shots` exact Boltzmann samples per problem (a stand-in for hardware reads) and lets
// ising-core turn them into magnetizations and gradients (sample means and covariances).
import {
  assertPluginOptions,
  createRng,
  defineSamplerPlugin,
  optionSpecs,
  sampleExact,
} from '@boltzmann/ising-core';
import type { IsingBatch, SampleSet } from '@boltzmann/ising-core';

/** What the sampler promises: approximate (finite shots), up to 16 spins, synchronous, seeded. */
const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };

/** Options of `create`: shots per problem and the random seed. */
export interface MySamplerOptions {
  shots?: number;
  seed?: number;
}

/**
 * The options described as data: `bench samplers` lists them, and `assertPluginOptions` refuses
 * any other key. `optionSpecs<MySamplerOptions>` makes the type checker hold this list and the
 * interface above in step (a key missing here, or one the interface lacks, fails `tsc`).
 */
const OPTIONS = optionSpecs<MySamplerOptions>({
  shots: { type: 'number', default: '4000', doc: 'Samples drawn per problem.' },
  seed: { type: 'number', default: '0', doc: 'Seed of the random stream.' },
});

export default defineSamplerPlugin<MySamplerOptions>({
  name: 'my-exact-shots',
  version: '0.1.0',
  capabilities,
  options: OPTIONS,
  create: (options = {}) => {
    assertPluginOptions('my-exact-shots', options, OPTIONS); // a misspelt key fails loudly
    const { shots = 4000, seed = 0 } = options;
    const rng = createRng(seed);
    return {
      name: 'my-exact-shots',
      capabilities,
      sample(batch: IsingBatch) {
        const sets: SampleSet[] = [];
        for (let q = 0; q < batch.size; q++) {
          const n = batch.spins[q] ?? 0;
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
