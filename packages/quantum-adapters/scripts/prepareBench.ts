// Prints how long the dwave plugin's client-side work takes for one attention call:
// embedding + qp encoding of B·T problems, and decoding + majority-vote unembedding of their answers.
// Run: pnpm --filter @boltzmann/quantum-adapters exec tsx --conditions=@boltzmann/source scripts/prepareBench.ts
import { createRng, floorScaledInt } from '@boltzmann/ising-core';
import {
  chimeraCliqueEmbedding,
  chimeraGraph,
  decodeQpAnswer,
  embedIsing,
  encodeQpProblem,
  greedyCliqueEmbedding,
  pegasusCliqueEmbedding,
  pegasusGraph,
  uniformTorqueCompensation,
  unembedMajority,
} from '../src/index.js';

const shape = { rows: 16, columns: 16, shore: 4 };
const graph = chimeraGraph(shape);
const rng = createRng(1);
const B = 64;
const T = 12;
const reads = 1000;

let t = performance.now();
const chains = chimeraCliqueEmbedding(T, shape, graph);
console.log(
  `chimeraCliqueEmbedding K${T} on C16: ${(performance.now() - t).toFixed(1)} ms, chain length ${chains[0]!.length}`,
);

t = performance.now();
const greedy = greedyCliqueEmbedding(8, graph);
console.log(
  `greedyCliqueEmbedding K8 on C16: ${(performance.now() - t).toFixed(0)} ms, longest chain ${Math.max(...greedy.map((c) => c.length))}`,
);

const J = Float64Array.from({ length: T * T }, (_, i) =>
  Math.floor(i / T) < i % T ? 0.1 * rng.normal() : 0,
);
function prepare(name: string, g: typeof graph, emb: typeof chains): void {
  const start = performance.now();
  for (let q = 0; q < B * T; q++) {
    const n = (q % T) + 1;
    const linear = Float64Array.from({ length: n }, () => -rng.normal());
    const couplings = new Float64Array(n * n);
    for (let u = 0; u < n; u++)
      for (let v = u + 1; v < n; v++) couplings[u * n + v] = -J[u * T + v]!;
    const problem = { n, linear, couplings };
    const { terms, offset } = embedIsing(problem, emb, g, uniformTorqueCompensation(problem));
    encodeQpProblem(g, terms, offset);
  }
  const ms = performance.now() - start;
  console.log(
    `embed + encode ${B * T} problems (B=${B}, T=${T}) on ${name}: ${ms.toFixed(0)} ms (${((1000 * ms) / (B * T)).toFixed(0)} µs per problem)`,
  );
}
prepare('C16', graph, chains);
const p16 = pegasusGraph(16);
t = performance.now();
const pegasusChains = pegasusCliqueEmbedding(T, 16, p16);
console.log(
  `pegasusCliqueEmbedding K${T} on P16: ${(performance.now() - t).toFixed(1)} ms, chain length ${pegasusChains[0]!.length}`,
);
prepare('P16', p16, pegasusChains);

// Synthetic answers: `reads` distinct random rows over the active qubits of a T-spin problem.
const active = [...new Set(chains.flat())].sort((a, b) => a - b);
const bytesPer = Math.ceil(active.length / 8);
const bytes = new Uint8Array(reads * bytesPer).map(() => floorScaledInt(rng, 256));
const answer = {
  format: 'qp',
  num_variables: graph.qubits.length,
  active_variables: Buffer.from(Int32Array.from(active).buffer).toString('base64'),
  energies: Buffer.from(new Float64Array(reads).buffer).toString('base64'),
  num_occurrences: Buffer.from(new Int32Array(reads).fill(1).buffer).toString('base64'),
  solutions: Buffer.from(bytes).toString('base64'),
};
t = performance.now();
for (let k = 0; k < 64; k++) {
  const a = decodeQpAnswer(answer);
  unembedMajority(a.solutions, a.activeVariables, a.numOccurrences, chains, T, k);
}
const decodeMs = (performance.now() - t) / 64;
console.log(
  `decode + unembed one answer (${reads} rows, ${active.length} active qubits): ${decodeMs.toFixed(2)} ms`,
);
