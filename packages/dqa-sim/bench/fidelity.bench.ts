// Fidelity table (not a test): KL and magnetization error of the calibrated DQA output against the
// exact Boltzmann distribution, over τ and K, for one seeded random attention-like problem.
// Run with `pnpm --filter @boltzmann/dqa-sim bench:fidelity`. Options: --n 6 --seed 1 --fields 1 --couplings 0.5
import { createRng } from '@boltzmann/ising-core';
import { fidelitySweep } from '../src/index.js';
import type { Calibration } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'fidelity.bench.ts [--couplings VALUE] [--fields VALUE] [--n VALUE] [--seed VALUE]',
  { couplings: 'string', fields: 'string', n: 'string', seed: 'string' },
);

const option = (name: string, fallback: string): number => Number(scriptArg(name, fallback));
const n = option('n', '6');
const seed = option('seed', '1');
const fieldScale = option('fields', '1');
const couplingScale = option('couplings', '0.5');
const rng = createRng(seed);
const fields = Array.from({ length: n }, () => fieldScale * rng.normal());
const couplings = Array.from({ length: n * n }, () => couplingScale * rng.normal());

console.log(
  `n = ${n}, fields ~ N(0, ${fieldScale}²), couplings ~ N(0, ${couplingScale}²), seed ${seed}, beta 1, linear schedule, order 2\n`,
);
console.log(
  '| calibration | τ | K | X | KL(target‖dqa) | KL(dqa‖target) | max abs(Δm) | mean abs(Δm) |',
);
console.log('|---|---|---|---|---|---|---|---|');
const cases: [Calibration, number[]][] = [
  ['effective-temperature', [0.5, 1, 1.5, 2, 4]],
  ['linear-response', [1, 2, 4, 8, 16, 32]],
];
for (const [calibrate, taus] of cases) {
  for (const row of fidelitySweep({ fields, couplings, taus, steps: [32, 64], calibrate })) {
    console.log(
      `| ${calibrate} | ${row.tau} | ${row.steps} | ${row.x.toPrecision(3)} | ${row.klTargetDqa.toExponential(2)} | ` +
        `${row.klDqaTarget.toExponential(2)} | ${row.maxMagnetizationError.toFixed(3)} | ${row.meanMagnetizationError.toFixed(3)} |`,
    );
  }
}
