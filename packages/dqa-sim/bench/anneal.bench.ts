// Benchmark (not a test): wall time of one anneal with dqa-sim against the same Trotter circuit on
// the npm `quantum-circuit` simulator. Run with `nx run dqa-sim:bench` or `pnpm --filter @boltzmann/dqa-sim bench`.
// Options: --sizes 12,16,20  --qc-sizes 8,10,12  --steps 32  --qc-budget 120 (seconds per quantum-circuit run).
import os from 'node:os';
import QuantumCircuit from 'quantum-circuit';
import { annealStatevector, toQasm3 } from '../src/index.js';
import type { IsingProblem } from '../src/index.js';
import { appendBraketGate } from '../src/internal/testing/appendBraketGate.js';
import { parseScriptArgs, scriptArg } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'anneal.bench.ts [--qc-budget VALUE] [--qc-sizes VALUE] [--sizes VALUE] [--steps VALUE]',
  { 'qc-budget': 'string', 'qc-sizes': 'string', sizes: 'string', steps: 'string' },
);

const option = (name: string, fallback: string): string => scriptArg(name, fallback);
const sizes = option('sizes', '12,16,20').split(',').map(Number);
const qcSizes = option('qc-sizes', '8,10,12').split(',').map(Number);
const steps = Number(option('steps', '32'));
const qcBudgetMs = Number(option('qc-budget', '120')) * 1000;
const tau = 8;

/** A dense, attention-like problem: every pair coupled. Deterministic, no RNG needed. */
function problemOf(n: number): IsingProblem {
  const fields = Array.from({ length: n }, (_, j) => Math.sin(1.7 * j + 0.3));
  const couplings = Array.from({ length: n * n }, (_, i) => 0.3 * Math.cos(2.3 * i + 0.1));
  return { fields, couplings };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function timeDqa(n: number, runs: number): { median: number; min: number } {
  const problem = problemOf(n);
  annealStatevector(problem, { tau, steps, order: 1 }); // warm-up: JIT and allocation, not timed
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    annealStatevector(problem, { tau, steps, order: 1 });
    times.push(performance.now() - t0);
  }
  return { median: median(times), min: Math.min(...times) };
}

/** The exported circuit (Braket dialect: h, rz, zz, rx), rebuilt gate by gate with quantum-circuit's API. */
function buildQc(n: number): { circuit: QuantumCircuit; gates: number } {
  const qasm = toQasm3(problemOf(n), { tau, steps, order: 1, dialect: 'braket', measure: false });
  const circuit = new QuantumCircuit(n);
  let gates = 0;
  for (const line of qasm.split('\n')) if (appendBraketGate(circuit, line)) gates++;
  return { circuit, gates };
}

/** Largest |Δψ| between the two simulators (computational index = dqa-sim index XOR all ones). */
function agreement(n: number, circuit: QuantumCircuit): number {
  const psi = annealStatevector(problemOf(n), { tau, steps, order: 1 });
  const flip = (1 << n) - 1;
  let worst = 0;
  for (let s = 0; s < psi.re.length; s++) {
    const z = circuit.state[String(s ^ flip)] ?? { re: 0, im: 0 };
    worst = Math.max(worst, Math.hypot(psi.re[s]! - z.re, psi.im[s]! - z.im));
  }
  return worst;
}

console.log(
  `dqa-sim anneal benchmark: tau = ${tau}, K = ${steps} Trotter steps (order 1), all-to-all couplings`,
);
console.log(
  `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);

const dqaTimes = new Map<number, { median: number; min: number }>();
console.log('| n | dqa-sim median (ms) | dqa-sim min (ms) | runs |');
console.log('|---|---|---|---|');
for (const n of [...new Set([...sizes, ...qcSizes])].sort((a, b) => a - b)) {
  const runs = n >= 20 ? 3 : 7;
  const t = timeDqa(n, runs);
  dqaTimes.set(n, t);
  console.log(`| ${n} | ${t.median.toFixed(1)} | ${t.min.toFixed(1)} | ${runs} |`);
}

console.log(
  '\n| n | gates | quantum-circuit run (ms) | dqa-sim median (ms) | speed-up | max abs(Δψ) |',
);
console.log('|---|---|---|---|---|---|');
let previous: { n: number; ms: number } | undefined;
for (const n of qcSizes) {
  // Skip a size whose predicted time (assuming at least ×2 per added qubit) exceeds the budget.
  if (previous !== undefined && previous.ms * 2 ** (n - previous.n) > qcBudgetMs) {
    console.log(
      `| ${n} | – | skipped: predicted > ${qcBudgetMs / 1000} s from n = ${previous.n} | – | – | – |`,
    );
    continue;
  }
  const { circuit, gates } = buildQc(n);
  const t0 = performance.now();
  circuit.run();
  const ms = performance.now() - t0;
  previous = { n, ms };
  const ours = dqaTimes.get(n)!.median;
  console.log(
    `| ${n} | ${gates} | ${ms.toFixed(0)} | ${ours.toFixed(1)} | ${(ms / ours).toFixed(0)}× | ${agreement(n, circuit).toExponential(1)} |`,
  );
}
