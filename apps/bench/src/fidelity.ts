import * as dqaSim from '@boltzmann/dqa-sim';
import { writeJsonAtomic } from './atomicWrite.js';
import { BenchError } from './benchError.js';
import { join } from 'node:path';
import type { BenchCommand } from './options.js';
import type { FidelityPoint } from './plots.js';

type Sweep = (options: Record<string, unknown>) => ReadonlyArray<Record<string, number>> | Promise<ReadonlyArray<Record<string, number>>>;

/**
 * Runs dqa-sim's fidelity sweep (KL divergence and magnetization error of the anneal's output
 * distribution against exact Boltzmann, over anneal times τ × Trotter steps) and saves it
 * as `fidelity.json` in the results directory.
 *
 * @param command the dqa command (sweep axes, dqa options, largest length, seed).
 * @param out log sink.
 * @returns the sweep rows.
 * @throws BENCH_MISSING_API when dqa-sim has no `fidelitySweep`; DqaError codes for bad options.
 */
export async function runFidelitySweep(command: BenchCommand, out: (line: string) => void): Promise<FidelityPoint[]> {
  const sweep = (dqaSim as unknown as Record<string, unknown>)['fidelitySweep'];
  if (typeof sweep !== 'function') throw new BenchError('BENCH_MISSING_API', '@boltzmann/dqa-sim does not export fidelitySweep() yet');
  const n = Math.max(...command.grid.lengths);
  out(`fidelity sweep: n = ${n} spins, τ ∈ {${command.sweepTaus.join(', ')}}, Trotter steps ∈ {${command.sweepSteps.join(', ')}}`);
  const rows = await (sweep as Sweep)({ ...command.dqaOptions, n, taus: command.sweepTaus, steps: command.sweepSteps, seed: command.grid.seeds[0] ?? 0 });
  const points = rows.map((r) => ({ tau: r['tau']!, steps: r['steps']!, kl: r['kl']!, magnetizationError: r['magnetizationError']! }));
  writeJsonAtomic(join(command.resultsDir, 'fidelity.json'), points);
  return points;
}
