import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { assertExactRange } from './internal/kernels/exactRange.js';
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
import { assertPluginOptions, optionSpecs } from './pluginOptions.js';

/**
 * Options of the {@link gibbsSampler} plugin.
 *
 * @category Samplers
 */
export interface GibbsOptions {
  /** Seed of the sampler's random stream (default 0). */
  readonly seed?: number;
  /** Independent chains per problem (default 8, at most 65,536). */
  readonly chains?: number;
  /** Sweeps discarded at the start of every chain (default 200, at most 1,000,000). */
  readonly burnIn?: number;
  /** States kept per chain (default 1000, at most 1,000,000), one every `thin` sweeps. */
  readonly samples?: number;
  /** Sweeps between kept states (default 2, at most 1,000). Products are capped too: see {@link GIBBS_LIMITS}. */
  readonly thin?: number;
  /** Start of every chain: uniformly random spins, all +1 or all −1 (default `'random'`). */
  readonly initial?: 'random' | 'up' | 'down';
}

const OPTIONS = optionSpecs<GibbsOptions>({
  seed: { type: 'number', default: '0', doc: "Seed of the sampler's random stream." },
  chains: { type: 'integer', default: '8', doc: 'Independent chains per problem, at most 65,536.' },
  burnIn: {
    type: 'integer',
    default: '200',
    doc: 'Sweeps discarded at the start of every chain, at most 1,000,000.',
  },
  samples: {
    type: 'integer',
    default: '1000',
    doc: 'States kept per chain, one every `thin` sweeps, at most 1,000,000.',
  },
  thin: { type: 'integer', default: '2', doc: 'Sweeps between kept states, at most 1,000.' },
  initial: {
    type: "'random' | 'up' | 'down'",
    default: "'random'",
    doc: 'Start of every chain: uniformly random spins, all +1 or all −1.',
  },
});

const capabilities: SamplerCapabilities = {
  exact: false,
  maxSpins: 4096,
  async: false,
  deterministic: true,
};

/** Up to this many spins a state fits in an exact integer key, so repeated states are merged into weights. */
const MERGE_SPIN_LIMIT = 30;

interface ChainSettings {
  readonly chains: number;
  readonly burnIn: number;
  readonly samples: number;
  readonly thin: number;
  readonly initial: 'random' | 'up' | 'down';
}

/**
 * Largest values of the {@link gibbsSampler} options, checked in `create` before any work:
 * `chains` 65,536, `samples` 1,000,000, `burnIn` 1,000,000, `thin` 1,000; per problem at most
 * `keptStates` 16,777,216 kept states (`chains · samples`) and `sweeps` 67,108,864 sweeps
 * (`chains · (burnIn + samples · thin)`, about 10 s at 16 spins); and, checked in `sample`
 * before allocating, at most `keptBytes` 1 GiB of unmerged states (`chains · samples · n`
 * bytes, for problems of more than 30 spins).
 * @summary Largest values of the {@link gibbsSampler} options, checked in `create` before any work.
 * @category Samplers
 */
export const GIBBS_LIMITS = {
  chains: 65_536,
  samples: 1_000_000,
  burnIn: 1_000_000,
  thin: 1_000,
  keptStates: 2 ** 24,
  sweeps: 2 ** 26,
  keptBytes: 2 ** 30,
} as const;

const fmt = (n: number): string => n.toLocaleString('en-US');

function readCount(
  options: GibbsOptions,
  key: 'chains' | 'burnIn' | 'samples' | 'thin',
  fallback: number,
  min: number,
): number {
  const value = options[key] ?? fallback;
  const max = GIBBS_LIMITS[key];
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `gibbs option ${key} must be an integer in [${min}, ${fmt(max)}], got ${echo(value)}`,
    );
  }
  return value;
}

/** Reads the chain counts and checks their products against {@link GIBBS_LIMITS}. */
function readSettings(options: GibbsOptions, initial: ChainSettings['initial']): ChainSettings {
  const chains = readCount(options, 'chains', 8, 1);
  const burnIn = readCount(options, 'burnIn', 200, 0);
  const samples = readCount(options, 'samples', 1000, 1);
  const thin = readCount(options, 'thin', 2, 1);
  const kept = chains * samples;
  const sweeps = chains * (burnIn + samples * thin);
  const tooMany = (what: string, value: number, max: number): IsingError =>
    new IsingError(
      'ISING_INVALID_ARGUMENT',
      `gibbs options give ${what} = ${fmt(value)} per problem, above the maximum ${fmt(max)}; lower chains, samples, burnIn or thin`,
    );
  if (kept > GIBBS_LIMITS.keptStates)
    throw tooMany('chains · samples', kept, GIBBS_LIMITS.keptStates);
  if (sweeps > GIBBS_LIMITS.sweeps)
    throw tooMany('chains · (burnIn + samples · thin)', sweeps, GIBBS_LIMITS.sweeps);
  return { chains, burnIn, samples, thin, initial };
}

/** Refuses, before allocating, a problem whose unmerged kept states would pass `keptBytes`. */
function assertKeptBytes(batch: IsingBatch, settings: ChainSettings): void {
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    const bytes = settings.chains * settings.samples * n;
    if (n > MERGE_SPIN_LIMIT && bytes > GIBBS_LIMITS.keptBytes) {
      throw new IsingError(
        'ISING_INVALID_ARGUMENT',
        `gibbs: problem ${q} has ${fmt(n)} spins, so chains · samples · spins = ${fmt(bytes)} bytes of kept states, ` +
          `above the maximum ${fmt(GIBBS_LIMITS.keptBytes)}; lower chains or samples`,
      );
    }
  }
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
 * Gibbs sampling (single-spin heat-bath MCMC) as a sampler plugin.
 *
 * It returns weighted sample sets; `estimateBatch` turns them into magnetizations (sample means)
 * and the fluctuation–dissipation VJP. Approximate: the error shrinks as `1/sqrt(chains ·
 * samples)` for well-mixing chains; strongly coupled problems mix slowly.
 *
 * One sweep costs `O(n)` per update plus `O(n)` per flip; a problem costs
 * `chains · (burnIn + samples · thin)` sweeps. The random stream advances across calls, so
 * two samplers created with the same options give the same sequence of answers.
 *
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on a non-finite seed, a count that is not an
 *   integer in range (`chains`, `samples`, `thin` ≥ 1, `burnIn` ≥ 0, each at most its {@link GIBBS_LIMITS}
 *   entry, and their products within `keptStates` and `sweeps`) or an unknown `initial`; from `sample`:
 *   ISING_INVALID_ARGUMENT when a problem's kept states would pass `keptBytes`; ISING_NOT_FINITE when
 *   `max(1, β)·(Σ|h| + Σ|J|)` of a problem passes 2^1021, the range of the exact samplers.
 * @example
 * import { causalBatch, estimateBatch, gibbsSampler } from '@boltzmann/ising-core';
 *
 * const scores = Float64Array.from({ length: 16 }, (_, i) => Math.sin(i));
 * const J = new Float64Array(16).fill(0.2);
 * const sampler = gibbsSampler.create({ seed: 7, chains: 4, samples: 2000 });
 * const { magnetization } = await estimateBatch(sampler, causalBatch(scores, J, { batch: 1, length: 4 }));
 * console.log(magnetization);
 * @category Samplers
 */
export const gibbsSampler: SamplerPlugin<GibbsOptions, Sampler, 'gibbs'> = {
  name: 'gibbs',
  version: '0.1.0',
  description:
    'Single-spin heat-bath Gibbs sampling with a seeded RNG; moments and VJPs from sample covariances.',
  capabilities,
  options: OPTIONS,
  create(options: GibbsOptions = {}): Sampler {
    assertPluginOptions('gibbs', options, OPTIONS);
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
    const settings = readSettings(options, initial);
    const rng = createRng(seed);
    return {
      name: 'gibbs',
      capabilities,
      sample(batch: IsingBatch): SampleResult {
        // The exact samplers' range: beyond it 2β·φ overflows and every chain freezes on
        // finite but wrong states.
        assertExactRange(batch, 'gibbs');
        assertKeptBytes(batch, settings);
        const sym = symmetricCouplings(batch, maxSpinsOf(batch));
        const sets: SampleSet[] = [];
        for (let q = 0; q < batch.size; q++) sets.push(sampleProblem(batch, q, sym, settings, rng));
        return { kind: 'samples', sets };
      },
    };
  },
};
