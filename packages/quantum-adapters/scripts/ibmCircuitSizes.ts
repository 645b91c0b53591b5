// Prints the size of the routed IBM circuits (two-qubit gates, depth, swap layers per Trotter step)
// for dense and banded problems on the recorded ibm_fez (cz) and ibm_brisbane (ecr) maps: what the
// adapters README's "What a circuit costs" table shows.
// Run: pnpm --filter @boltzmann/quantum-adapters exec tsx --conditions=@boltzmann/source scripts/ibmCircuitSizes.ts
import { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT, transpileAnneal } from '../src/index.js';

const devices = [
  ['ibm_fez', IBM_FEZ_SNAPSHOT],
  ['ibm_brisbane', IBM_BRISBANE_SNAPSHOT],
] as const;
const n = (x: number): string => x.toLocaleString('en-US');

console.log(
  '| device | Trotter steps | spins | couplings | swap layers / step | two-qubit gates | depth |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [name, target] of devices) {
  for (const steps of [64, 8]) {
    for (const spins of [4, 8, 12]) {
      for (const band of [spins - 1, 2]) {
        const couplings = new Float64Array(spins * spins);
        for (let j = 0; j < spins; j++)
          for (let k = j + 1; k <= Math.min(spins - 1, j + band); k++)
            couplings[j * spins + k] = 0.3;
        const fields = new Array<number>(spins).fill(0.2);
        const { stats } = transpileAnneal(
          { fields, couplings },
          { steps, calibrate: 'linear-response' },
          target,
        );
        const form = band === spins - 1 ? 'dense' : 'band 2';
        console.log(
          `| ${name} | ${steps} | ${spins} | ${form} | ${stats.swapLayersPerStep} | ${n(stats.twoQubitGates)} | ${n(stats.depth)} |`,
        );
      }
    }
  }
}
