// Prints the size and expected fidelity of the routed IBM circuits (two-qubit gates, depth, the
// product of (1 − ε) over gates and readouts on the recorded calibration) for dense and banded
// problems on ibm_fez (cz) and ibm_brisbane (ecr), at τ/K = 0.25: what the adapters README's
// "What a circuit costs" table shows.
// Run: pnpm --filter @boltzmann/quantum-adapters exec tsx --conditions=@boltzmann/source scripts/ibmCircuitSizes.ts
import {
  circuitFidelity,
  IBM_BRISBANE_SNAPSHOT,
  IBM_FEZ_SNAPSHOT,
  transpileAnneal,
} from '../src/index.js';

const devices = [
  ['ibm_fez', IBM_FEZ_SNAPSHOT],
  ['ibm_brisbane', IBM_BRISBANE_SNAPSHOT],
] as const;
const n = (x: number): string => x.toLocaleString('en-US');

console.log(
  '| device | Trotter steps | spins | couplings | two-qubit gates | depth | expected fidelity |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [name, target] of devices) {
  for (const spins of [4, 8, 12]) {
    for (const band of [spins - 1, 2]) {
      if (band === 2 && spins !== 8) continue;
      for (const steps of [64, 8, 4, 2, 1]) {
        const couplings = new Float64Array(spins * spins);
        for (let j = 0; j < spins; j++)
          for (let k = j + 1; k <= Math.min(spins - 1, j + band); k++)
            couplings[j * spins + k] = 0.3;
        const fields = new Array<number>(spins).fill(0.2);
        const circuit = transpileAnneal(
          { fields, couplings },
          { steps, tau: steps * 0.25, calibrate: 'linear-response' },
          target,
        );
        const { fidelity } = circuitFidelity(circuit, target.properties!);
        const form = band === spins - 1 ? 'dense' : 'band 2';
        const { stats } = circuit;
        console.log(
          `| ${name} | ${steps} | ${spins} | ${form} | ${n(stats.twoQubitGates)} | ${n(stats.depth)} | ${fidelity.toPrecision(2)} |`,
        );
      }
    }
  }
}
