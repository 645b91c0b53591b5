import { fidelitySweep, isDqaError } from '@boltzmann/dqa-sim';
import type { FidelityRow } from '@boltzmann/dqa-sim';
import { createRng } from '@boltzmann/ising-core';
import { join } from 'node:path';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import type { BenchCommand, DqaSettings } from '../benchCommand.js';
import type { FidelityPoint } from '../report/plots/plots.js';

/** Random problems per sweep, and their scales (our choice: fields like attention scores, weak couplings). */
export const SWEEP_PROBLEMS = 4;
const FIELD_STD = 1;
const COUPLING_STD = 0.3;

/**
 * Runs dqa-sim's fidelity sweep — KL(p_exact ‖ p_dqa) and the largest magnetization error of
 * the anneal's output distribution against exact Boltzmann, over anneal times τ × Trotter
 * steps — on {@link SWEEP_PROBLEMS} seeded random problems of n = the largest grid length
 * spins (h ~ N(0, 1), J ~ N(0, 0.3²)), averaged over the problems. Saved as `fidelity.json`.
 *
 * @param command the dqa command (lengths, first seed, results folder).
 * @param dqa its sweep axes and `--dqa-options` (such as order/schedule/calibrate).
 * @param out log sink.
 * @returns one point per (τ, steps).
 * @throws DqaError codes for bad anneal options.
 */
export async function runFidelitySweep(
  command: Pick<BenchCommand, 'grid' | 'resultsDir'>,
  dqa: DqaSettings,
  out: (line: string) => void,
): Promise<FidelityPoint[]> {
  const n = Math.max(...command.grid.lengths);
  const seed = command.grid.seeds[0] ?? 0;
  out(
    `fidelity sweep: ${SWEEP_PROBLEMS} random problems of ${n} spins, τ ∈ {${dqa.sweepTaus.join(', ')}}, Trotter steps ∈ {${dqa.sweepSteps.join(', ')}}`,
  );
  const rng = createRng(seed + 0xf1de);
  const { tau: _tau, steps: _steps, shots: _shots, seed: _seed, ...anneal } = dqa.options;
  const skipped = new Set<string>();
  const sums = new Map<string, { tau: number; steps: number; kl: number; err: number }>();
  for (let p = 0; p < SWEEP_PROBLEMS; p += 1) {
    const fields = Array.from({ length: n }, () => FIELD_STD * rng.normal());
    const couplings = new Array<number>(n * n).fill(0);
    for (let j = 0; j < n; j += 1)
      for (let k = j + 1; k < n; k += 1) couplings[j * n + k] = COUPLING_STD * rng.normal();
    const rows: FidelityRow[] = [];
    for (const tau of dqa.sweepTaus) {
      for (const steps of dqa.sweepSteps) {
        try {
          rows.push(
            ...fidelitySweep({ ...anneal, fields, couplings, taus: [tau], steps: [steps] }),
          );
        } catch (error) {
          // Some (τ, K) pairs are outside what the calibration can handle (e.g. τ too long for K):
          // leave that point out of the plot and say why, once.
          if (!isDqaError(error, 'DQA_INVALID_ARGUMENT')) throw error;
          const key = `${tau}|${steps}`;
          if (!skipped.has(key))
            out(`fidelity sweep: skipped τ = ${tau}, steps = ${steps}: ${error.message}`);
          skipped.add(key);
        }
      }
    }
    for (const r of rows) {
      const key = `${r.tau}|${r.steps}`;
      const s = sums.get(key) ?? { tau: r.tau, steps: r.steps, kl: 0, err: 0 };
      s.kl += r.klTargetDqa / SWEEP_PROBLEMS;
      s.err += r.maxMagnetizationError / SWEEP_PROBLEMS;
      sums.set(key, s);
    }
    // The sweep is CPU-bound and synchronous: let signals through between problems.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const points = [...sums.values()]
    .filter((s) => !skipped.has(`${s.tau}|${s.steps}`))
    .map((s) => ({ tau: s.tau, steps: s.steps, kl: s.kl, magnetizationError: s.err }));
  writeJsonAtomic(join(command.resultsDir, 'fidelity.json'), {
    problems: SWEEP_PROBLEMS,
    spins: n,
    fieldStd: FIELD_STD,
    couplingStd: COUPLING_STD,
    points,
  });
  return points;
}
