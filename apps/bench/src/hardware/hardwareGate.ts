// What a hardware grid must pass before anything is sent: its estimate printed (the requests of
// its first training batch written to `<results>/estimate`, with no credentials, and scaled to the
// grid), then refused when it is over `--budget`, or (with `--strict`) when its circuits fall
// below their expected-fidelity threshold. A `--dry-run` prints the same and says whether a real
// run would be refused.
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';
import type { BenchCommand } from '../benchCommand.js';
import type { RunConfig } from '../types.js';
import type { PendingRun } from '../grid/types.js';
import { budgetProblem } from './budget.js';
import { hardwareDryRun, hardwareRuns } from './hardwareDryRun.js';
import type { HardwareEstimate } from './types.js';

/** Why `estimate` refuses the command's grid (`--budget`, `--strict`), or undefined. */
export function hardwareRefusal(
  command: BenchCommand,
  estimate: HardwareEstimate,
): BenchError | undefined {
  if (command.budget !== undefined) {
    const problem =
      estimate.total === undefined
        ? `the sampler wrote no cost estimate to hold against --budget ${command.budget.text}`
        : budgetProblem(estimate.total, command.budget);
    if (problem !== undefined) return new BenchError('BENCH_OVER_BUDGET', problem);
  }
  if (command.strict && estimate.below.length > 0)
    return new BenchError(
      'BENCH_LOW_FIDELITY',
      `--strict: ${estimate.below.join('; ')} (raise it with fewer spins or steps, another device, or a lower minFidelity)`,
    );
  return undefined;
}

/**
 * A real run's gate: prints the hardware estimate before anything is sent and throws when the
 * grid is refused. Grids without hardware samplers pass untouched. With `pending` (the plan's
 * runs left to train), a resumed grid is held to what it still has to send, not to its whole
 * cost from step 0.
 *
 * @throws BENCH_OVER_BUDGET over `--budget` (or no estimate to check it against, e.g. a backend
 *   whose coupling map only a live query gives); BENCH_LOW_FIDELITY with `--strict`.
 */
export async function gateHardwareGrid(
  command: BenchCommand,
  configs: readonly RunConfig[],
  out: (line: string) => void,
  registry: SamplerRegistry,
  pending?: readonly PendingRun[],
): Promise<void> {
  if (hardwareRuns(configs, registry).length === 0) return;
  out('estimate before anything is sent (the first training batch written, no credentials used):');
  let estimate: HardwareEstimate | false;
  try {
    const options = { folder: 'estimate', ...(pending === undefined ? {} : { pending }) };
    estimate = await hardwareDryRun(command, configs, out, registry, options);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (command.budget !== undefined)
      throw new BenchError(
        'BENCH_OVER_BUDGET',
        `no estimate to hold against --budget ${command.budget.text}: ${why}`,
        { cause: error },
      );
    out(`warning: no estimate before submitting: ${why}`);
    return;
  }
  const refusal = estimate === false ? undefined : hardwareRefusal(command, estimate);
  if (refusal !== undefined) throw refusal;
}
