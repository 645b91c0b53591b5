import { createIsingBatch } from '../batch.js';
import { echo } from '../echo.js';
import { IsingError, isIsingError } from '../errors.js';
import { boltzmannDistribution } from '../exact.js';
import { samplerLabel } from '../internal/checkedEstimate.js';
import { type Rng, createRng } from '../rng.js';
import type { IsingBatch, SampleResult, SampleSet, Sampler } from '../types.js';
import {
  DENSE_SPIN_LIMIT,
  type Rows,
  assertDenseSpins,
  checkDistribution,
  denseMagnetization,
  drawDense,
  drawProduct,
  enumerateDense,
  productDistribution,
} from './draws.js';
import { IsingSampleSet } from './isingSampleSet.js';
import { type CheckedProblem, checkProblem } from './sampleIsingChecks.js';
import { drawSequential } from './sequentialDraws.js';
import type { SampleIsingOptions, SampleSource } from './types.js';

/** Largest gap between an exact sampler's magnetizations and the enumerated ones it may show. */
const EXACT_AGREEMENT = 1e-6;

async function run<T>(sampler: Sampler, call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    if (isIsingError(cause)) throw cause;
    const detail = cause instanceof Error ? cause.message : echo(cause, 300);
    throw new IsingError('ISING_SAMPLER_FAILED', `${samplerLabel(sampler)} failed: ${detail}`, {
      cause,
    });
  }
}

/** The one set of a `'samples'` answer, checked: `n` spins, ±1 states, finite weights ≥ 0. */
function checkSet(set: SampleSet | undefined, n: number, who: string): Rows {
  if (!set || !(set.states instanceof Int8Array) || !(set.weights instanceof Float64Array))
    throw new IsingError('ISING_BAD_SAMPLES', `${who} answered no { spins, states, weights } set`);
  if (set.spins !== n || set.states.length !== set.weights.length * n)
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `${who} answered ${set.weights.length} rows of ${echo(set.spins)} spins in ${set.states.length} entries; the problem has ${n} spins`,
    );
  for (let i = 0; i < set.states.length; i++)
    if (set.states[i] !== 1 && set.states[i] !== -1)
      throw new IsingError('ISING_BAD_SAMPLES', `${who}: entry ${i} is ${set.states[i]}, not ±1`);
  for (let i = 0; i < set.weights.length; i++) {
    const w = set.weights[i]!;
    if (!Number.isFinite(w) || w < 0)
      throw new IsingError('ISING_BAD_SAMPLES', `${who}: weight ${i} is ${w}; it must be ≥ 0`);
  }
  return { states: set.states.slice(), occurrences: set.weights.slice() };
}

function fromDense(p: Float64Array, problem: CheckedProblem, rng: Rng): [Rows, SampleSource] {
  return problem.dense === 'enumerate'
    ? [enumerateDense(p, problem.n), 'dense-enumerate']
    : [drawDense(p, problem.n, problem.reads, rng), 'dense-draw'];
}

function fromAnswer(
  answer: SampleResult,
  problem: CheckedProblem,
  rng: Rng,
  who: string,
): [Rows, SampleSource] {
  const kind = (answer as { kind?: unknown } | null)?.kind;
  if (kind === 'samples') {
    const { sets } = answer as Extract<SampleResult, { kind: 'samples' }>;
    return [checkSet(sets?.[0], problem.n, who), 'samples'];
  }
  if (kind === 'dense') {
    const { distributions } = answer as Extract<SampleResult, { kind: 'dense' }>;
    return fromDense(checkDistribution(distributions?.[0], problem.n, who), problem, rng);
  }
  throw new IsingError(
    'ISING_SAMPLER_FAILED',
    `${who} returned a result of kind ${echo(kind)}; expected 'dense' or 'samples'`,
  );
}

/**
 * An estimate-only sampler: an exact one (`capabilities.exact`) stands for the Boltzmann
 * distribution, enumerated here (≤ 24 spins) after its magnetizations are checked against it, or
 * drawn spin by spin from its conditional magnetizations (above 24 spins); an approximate one
 * stands for the product of its marginals.
 */
async function fromEstimate(
  sampler: Sampler,
  batch: IsingBatch,
  problem: CheckedProblem,
  rng: Rng,
): Promise<[Rows, SampleSource]> {
  const who = samplerLabel(sampler);
  const { n } = problem;
  if (sampler.capabilities?.exact && n > DENSE_SPIN_LIMIT) {
    if (problem.dense === 'enumerate') assertDenseSpins(n, "dense: 'enumerate'");
    const estimate = (b: IsingBatch) => run(sampler, () => sampler.estimate!(b));
    return [await drawSequential(estimate, problem, problem.reads, rng), 'exact-sequential'];
  }
  const estimate = await run(sampler, () => sampler.estimate!(batch));
  const m = estimate?.magnetization;
  if (
    !(m instanceof Float64Array) ||
    m.length < n ||
    m.subarray(0, n).some((v) => !(Math.abs(v) <= 1))
  )
    throw new IsingError(
      'ISING_BAD_SAMPLES',
      `${who} answered no magnetizations in [−1, 1] for ${n} spins`,
    );
  if (!sampler.capabilities?.exact) {
    if (problem.dense === 'enumerate') {
      assertDenseSpins(n, "dense: 'enumerate'");
      return [enumerateDense(productDistribution(m, n), n), 'product-of-marginals'];
    }
    return [drawProduct(m, n, problem.reads, rng), 'product-of-marginals'];
  }
  const p = boltzmann(problem);
  const exact = denseMagnetization(p, n);
  for (let j = 0; j < n; j++)
    if (Math.abs(exact[j]! - m[j]!) > EXACT_AGREEMENT)
      throw new IsingError(
        'ISING_SAMPLER_FAILED',
        `${who} reports exact: true but ⟨s_${j}⟩ = ${m[j]} where enumeration gives ${exact[j]}`,
      );
  return fromDense(p, problem, rng);
}

/** The Boltzmann probabilities of all `2^n` states (exact.ts's doubling DP, `O(2^n)` per term). */
const boltzmann = ({ n, fields, couplings, beta }: CheckedProblem): Float64Array =>
  boltzmannDistribution(fields, couplings, { beta, spins: n, maxSpins: DENSE_SPIN_LIMIT });

/**
 * Samples ONE Ising problem with any sampler and returns an {@link IsingSampleSet}: rows with
 * energies and occurrences, `first`, `aggregate()`, `counts()`, `toDimod()` (dimod's
 * `sampler.sample_ising(h, J, num_reads=…)`, Qiskit's counts).
 *
 * `h` has `n` entries and `J` is `n × n` row-major, in ising-core's physics convention
 * `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k`, `p(s) ∝ exp(−β E(s))`: the upper triangle is
 * read (the lower must be 0 or its mirror, the diagonal 0). For dimod's `E = Σ h s + Σ J s s`
 * pass `−h`, `−J`: the energies are then the same numbers.
 *
 * What the rows are depends on the sampler's answer:
 * - samples (`gibbs`, `dqa` with shots, hardware, most plugins): the sampler's rows and weights
 *   as they are; their count is the sampler's own option, not `reads`;
 * - an exact distribution (`dqa` with `shots: 0`, a `'dense'` plugin) or an exact estimate-only
 *   sampler (`exact`, `transfer-matrix`): `reads` draws with the seeded
 *   generator (`dense: 'draw'`, the default, so that every sampler answers with reads), or every
 *   state once with its probability, as dimod's `ExactSolver` (`dense: 'enumerate'`). Above 24
 *   spins (the transfer matrix takes 4096) the draws are exact by the chain rule, each spin from
 *   the sampler's magnetization conditioned on the spins before it (`'exact-sequential'`);
 * - an approximate estimate-only sampler (`mean-field`, `tap`): `reads` draws of independent spins
 *   with its magnetizations (`info.source` says `'product-of-marginals'`).
 * The sampler is not disposed: the caller owns it.
 *
 * @summary Samples ONE Ising problem with any sampler and returns an {@link IsingSampleSet}.
 * @throws {IsingError} ISING_INVALID_ARGUMENT, ISING_SHAPE_MISMATCH, ISING_NOT_FINITE and
 *   ISING_TOO_MANY_SPINS for bad input; ISING_BAD_SAMPLES for a malformed answer;
 *   ISING_SAMPLER_FAILED when the sampler throws anything but an IsingError.
 * @example
 * import { exactSampler, sampleIsing } from '@boltzmann/ising-core';
 *
 * const sampler = exactSampler.create();
 * const set = await sampleIsing(sampler, [0.5, -1], [0, 1, 0, 0], { reads: 100, seed: 1 });
 * console.log(set.first); // { sample: Int8Array [−1, −1], energy: −1.5, … }
 * console.log(set.aggregate().counts()); // reads by bitstring
 * @category Sampling
 */
export async function sampleIsing(
  sampler: Sampler,
  h: ArrayLike<number>,
  J: ArrayLike<number>,
  options: SampleIsingOptions = {},
): Promise<IsingSampleSet> {
  const problem = checkProblem(sampler, h, J, options);
  const { n, fields, couplings, beta } = problem;
  const batch = createIsingBatch({ fields, couplings, spins: [n], stride: n, beta });
  const rng = createRng(problem.seed);
  const [rows, source] =
    typeof sampler.sample === 'function'
      ? fromAnswer(
          await run(sampler, () => sampler.sample!(batch)),
          problem,
          rng,
          samplerLabel(sampler),
        )
      : await fromEstimate(sampler, batch, problem, rng);
  return IsingSampleSet.fromStates({
    fields,
    couplings,
    states: rows.states,
    ...(rows.occurrences ? { occurrences: rows.occurrences } : {}),
    ...(rows.probabilities ? { probabilities: rows.probabilities } : {}),
    info: { sampler: String(sampler.name), source, beta },
  });
}
