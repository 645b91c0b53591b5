import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { symmetricCouplings } from './internal/symmetricCouplings.js';
import { maxSpinsOf } from './internal/vjpInput.js';
import { createRng } from './rng.js';
import type { Rng } from './rng.js';
import type {
  IsingBatch,
  SampleResult,
  SampleSet,
  Sampler,
  SamplerCapabilities,
  SamplerPlugin,
} from './types.js';
import { assertPluginOptions, optionKeys } from './pluginOptions.js';

/** Options of the {@link gibbsSampler} plugin. */
export interface GibbsOptions {
  /** Seed of the sampler's random stream (default 0). */
  readonly seed?: number;
  /** Independent chains per problem (default 8). */
  readonly chains?: number;
  /** Sweeps discarded at the start of every chain (default 200). */
  readonly burnIn?: number;
  /** States kept per chain (default 1000), one every `thin` sweeps. */
  readonly samples?: number;
  /** Sweeps between kept states (default 2). */
  readonly thin?: number;
  /** Start of every chain: uniformly random spins, all +1 or all −1 (default `'random'`). */
  readonly initial?: 'random' | 'up' | 'down';
}

const KNOWN = optionKeys<GibbsOptions>({
  seed: true,
  chains: true,
  burnIn: true,
  samples: true,
  thin: true,
  initial: true,
});

const capabilities: SamplerCapabilities = {
  exact: false,
  maxSpins: 4096,
  async: false,
  deterministic: true,
};

/** Up to this many spins a state fits in an exact integer key, so repeated states are merged into weights. */
const MERGE_SPIN_LIMIT = 30;

function readCount(
  options: GibbsOptions,
  key: 'chains' | 'burnIn' | 'samples' | 'thin',
  fallback: number,
  min: number,
): number {
  const value = options[key] ?? fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `gibbs option ${key} must be an integer ≥ ${min}, got ${echo(value)}`,
    );
  }
  return value;
}

interface ChainSettings {
  readonly chains: number;
  readonly burnIn: number;
  readonly samples: number;
  readonly thin: number;
  readonly initial: 'random' | 'up' | 'down';
}

/**
 * Heat-bath chains for problem `q`: each update draws `s_j = +1` with probability
 * `1 / (1 + exp(-2β φ_j))`, `φ_j = h_j + Σ_k J_jk s_k`; the local fields φ are updated in O(n)
 * only when a spin flips. Returns every kept state, merged into weights when `n` is small.
 */
function sampleProblem(
  batch: IsingBatch,
  q: number,
  sym: Float64Array,
  settings: ChainSettings,
  rng: Rng,
): SampleSet {
  const { stride, beta } = batch;
  const n = batch.spins[q]!;
  const h = batch.fields.subarray(q * stride, q * stride + n);
  const s = new Int8Array(n);
  const phi = new Float64Array(n);
  const merge = n <= MERGE_SPIN_LIMIT;
  const counts = new Map<number, number>();
  const kept = merge ? new Int8Array(0) : new Int8Array(settings.chains * settings.samples * n);
  let keptRows = 0;

  const sweep = (): void => {
    for (let j = 0; j < n; j++) {
      const up = rng.next() * (1 + Math.exp(-2 * beta * phi[j]!)) < 1;
      const next = up ? 1 : -1;
      const old = s[j]!;
      if (next === old) continue;
      s[j] = next;
      const delta = next - old;
      const row = j * stride;
      for (let k = 0; k < n; k++) phi[k]! += sym[row + k]! * delta;
    }
  };

  for (let c = 0; c < settings.chains; c++) {
    for (let j = 0; j < n; j++) {
      s[j] =
        settings.initial === 'up'
          ? 1
          : settings.initial === 'down'
            ? -1
            : rng.next() < 0.5
              ? 1
              : -1;
    }
    for (let j = 0; j < n; j++) {
      let f = h[j]!;
      for (let k = 0; k < n; k++) f += sym[j * stride + k]! * s[k]!;
      phi[j] = f;
    }
    for (let t = 0; t < settings.burnIn; t++) sweep();
    for (let i = 0; i < settings.samples; i++) {
      for (let t = 0; t < settings.thin; t++) sweep();
      if (merge) {
        let key = 0;
        for (let j = 0; j < n; j++) if (s[j] === 1) key += 2 ** j;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      } else {
        kept.set(s, keptRows * n);
        keptRows++;
      }
    }
  }

  if (!merge) return { spins: n, states: kept, weights: new Float64Array(keptRows).fill(1) };
  const states = new Int8Array(counts.size * n);
  const weights = new Float64Array(counts.size);
  let row = 0;
  for (const [key, count] of counts) {
    for (let j = 0; j < n; j++) states[row * n + j] = Math.floor(key / 2 ** j) % 2 === 1 ? 1 : -1;
    weights[row] = count;
    row++;
  }
  return { spins: n, states, weights };
}

/**
 * Gibbs sampling (single-spin heat-bath MCMC) as a sampler plugin. It returns weighted sample
 * sets; `estimateBatch` turns them into magnetizations (sample means) and the
 * fluctuation–dissipation VJP. Approximate: the error shrinks as `1/sqrt(chains · samples)`
 * for well-mixing chains; strongly coupled problems mix slowly.
 *
 * One sweep costs `O(n)` per update plus `O(n)` per flip; a problem costs
 * `chains · (burnIn + samples · thin)` sweeps. The random stream advances across calls, so
 * two samplers created with the same options give the same sequence of answers.
 *
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on a non-finite seed, a count that is not an
 *   integer in range (`chains`, `samples`, `thin` ≥ 1, `burnIn` ≥ 0) or an unknown `initial`.
 * @example
 * const sampler = gibbsSampler.create({ seed: 7, chains: 4, samples: 2000 });
 * const { magnetization } = estimateBatch(sampler, batch) as BatchEstimate;
 */
export const gibbsSampler: SamplerPlugin<GibbsOptions, Sampler, 'gibbs'> = {
  name: 'gibbs',
  version: '0.1.0',
  description:
    'Single-spin heat-bath Gibbs sampling with a seeded RNG; moments and VJPs from sample covariances.',
  capabilities,
  create(options: GibbsOptions = {}): Sampler {
    assertPluginOptions('gibbs', options, KNOWN);
    const seed = options.seed ?? 0;
    if (!Number.isFinite(seed))
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `gibbs option seed must be finite, got ${echo(seed)}`,
      );
    const initial = options.initial ?? 'random';
    if (initial !== 'random' && initial !== 'up' && initial !== 'down') {
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `gibbs option initial must be 'random', 'up' or 'down', got ${echo(initial)}`,
      );
    }
    const settings: ChainSettings = {
      chains: readCount(options, 'chains', 8, 1),
      burnIn: readCount(options, 'burnIn', 200, 0),
      samples: readCount(options, 'samples', 1000, 1),
      thin: readCount(options, 'thin', 2, 1),
      initial,
    };
    const rng = createRng(seed);
    return {
      name: 'gibbs',
      capabilities,
      sample(batch: IsingBatch): SampleResult {
        const sym = symmetricCouplings(batch, maxSpinsOf(batch));
        const sets: SampleSet[] = [];
        for (let q = 0; q < batch.size; q++) sets.push(sampleProblem(batch, q, sym, settings, rng));
        return { kind: 'samples', sets };
      },
    };
  },
};
