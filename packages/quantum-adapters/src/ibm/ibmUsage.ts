// What a run would cost in QPU time, before anything is submitted: each routed circuit's duration
// from the device's gate lengths, plus the pause between shots, times the shots, plus each job's
// overhead; with the Open Plan's limit beside it.
import type { CostEstimate } from '../shared/costEstimate.js';
import type { IbmBackendProperties, IbmTarget, IsaCircuit } from './ibmTypes.js';
import { isaStatements } from './isaStatements.js';

/**
 * The QPU time a set of circuits would take, and how it was reckoned: the unit costs every
 * hardware dry run writes (`perProblem` a circuit's shots, `perJob` the overhead), and the totals.
 * @summary The QPU time a set of circuits would take, and how it was reckoned.
 * @category IBM Quantum
 */
export interface IbmUsageEstimate extends CostEstimate {
  readonly circuits: number;
  readonly shots: number;
  /** Sampler V2 jobs (⌈circuits / maxPubsPerJob⌉). */
  readonly jobs: number;
  /** Mean duration of one shot of one circuit (gates, readout and the pause between shots), in µs. */
  readonly meanShotMicroseconds: number;
  /**
   * circuits × shots × that mean + jobs × {@link IBM_JOB_OVERHEAD_SECONDS}, in seconds: the time
   * the QPU is locked, which IBM bills (its own estimate comes only after a job is submitted).
   */
  readonly qpuSeconds: number;
  /** Where each figure came from: the backend's properties, or the stated defaults. */
  readonly assumptions: readonly string[];
}

/**
 * The QPU seconds a Sampler V2 job costs beside its shots: IBM's "Estimate job run time" guide
 * (https://qiskit.github.io/documentation/pr-2009/guides/estimate-job-run-time) shows a 2-qubit Bell
 * circuit at the default 4,096 shots (qiskit-ibm-runtime options/sampler_options.py) estimated at
 * 4.106 quantum seconds, of which its shots take 4,096 × ≈ 252 µs (250 µs between shots, 1.56 µs
 * readout) ≈ 1.03 s: about 3.07 s is the job's own.
 * @summary The QPU seconds a Sampler V2 job costs beside its shots.
 * @category IBM Quantum
 */
export const IBM_JOB_OVERHEAD_SECONDS = 3.07;

/**
 * The Open Plan's quantum time: 10 minutes per 28-day rolling window
 * (https://qiskit.github.io/documentation/pr-2629/guides/instances, "Open Plan instance").
 * @category IBM Quantum
 */
export const IBM_OPEN_PLAN_SECONDS = 600;

/** Gate lengths used when `properties` lack them, in ns, by two-qubit basis. */
const DEFAULT_LENGTHS_NS = {
  // Heron: sx 24 ns in ibm_fez's properties (qiskit-ibm-runtime fake backend, Jan 2025); cz assumed 84 ns.
  cz: { oneQubit: 24, twoQubit: 84, readout: 1_560 },
  // Eagle: echoed cross-resonance gates are long (hundreds of ns); assumed 660 ns, sx 60 ns.
  ecr: { oneQubit: 60, twoQubit: 660, readout: 1_400 },
} as const;

/** Default pause between shots when the configuration does not say (`default_rep_delay`), in µs. */
const DEFAULT_REP_DELAY_US = 250;

type Lengths = (gate: string, qubits: readonly number[]) => number;

/** Gate length lookup: the properties' `gate_length` (ns) of that gate on those qubits, else the default. */
function gateLengths(
  properties: IbmBackendProperties | undefined,
  basis: 'cz' | 'ecr',
  assumptions: string[],
): Lengths {
  const known = new Map<string, number>();
  for (const g of properties?.gates ?? []) {
    const length = g.parameters.find((p) => p.name === 'gate_length')?.value;
    if (typeof length === 'number' && Number.isFinite(length) && length >= 0)
      known.set(`${g.gate}:${g.qubits.join(',')}`, length);
  }
  const d = DEFAULT_LENGTHS_NS[basis];
  const assumed = (): void => {
    if (assumptions.some((a) => a.startsWith('gate lengths'))) return;
    assumptions.push(
      `gate lengths missing from properties were taken as ${d.oneQubit} ns (1 qubit), ${d.twoQubit} ns (${basis}), ${d.readout} ns (readout)`,
    );
  };
  return (gate, qubits) => {
    if (gate === 'rz') return 0; // virtual: a frame change
    const hit =
      known.get(`${gate}:${qubits.join(',')}`) ??
      known.get(`${gate}:${[...qubits].reverse().join(',')}`);
    if (hit !== undefined) return hit;
    if (gate === 'measure') {
      const r = properties?.qubits?.[qubits[0]!]?.find((p) => p.name === 'readout_length');
      if (r !== undefined && Number.isFinite(r.value) && r.value >= 0)
        return r.unit === 'us' || r.unit === 'µs' ? r.value * 1_000 : r.value;
    }
    assumed();
    if (gate === 'measure') return d.readout;
    return qubits.length === 2 ? d.twoQubit : d.oneQubit;
  };
}

/** Critical-path duration of one routed circuit, readout included, in ns. */
export function circuitDurationNs(qasm: string, length: Lengths): number {
  const busy = new Map<number, number>();
  const at = (q: number): number => busy.get(q) ?? 0;
  for (const { gate, qubits } of isaStatements(qasm)) {
    const end = Math.max(...qubits.map(at)) + length(gate, qubits);
    for (const q of qubits) busy.set(q, end);
  }
  let longest = 0;
  for (const t of busy.values()) longest = Math.max(longest, t);
  return longest;
}

/**
 * Estimates the QPU time of running `circuits` with `shots` each on `target`.
 *
 * @param circuits the routed circuits (from the sampler's transpilation).
 * @param shots shots per circuit.
 * @param target the device (its `default_rep_delay` and gate lengths are read when present).
 * @param maxPubsPerJob pubs per job.
 * @returns the estimate, with its assumptions spelled out.
 * @example
 * import { IBM_FEZ_SNAPSHOT, estimateIbmUsage, transpileAnneal } from '@boltzmann/quantum-adapters';
 *
 * const circuits = [0.1, 0.2].map((h) => transpileAnneal({ fields: [h, -h] }, { tau: 2, steps: 8 }, IBM_FEZ_SNAPSHOT));
 * const { qpuSeconds, jobs } = estimateIbmUsage(circuits, 1000, IBM_FEZ_SNAPSHOT, 300);
 * console.log(qpuSeconds, jobs);
 * @category IBM Quantum
 */
export function estimateIbmUsage(
  circuits: readonly IsaCircuit[],
  shots: number,
  target: IbmTarget,
  maxPubsPerJob: number,
): IbmUsageEstimate {
  const assumptions: string[] = [];
  const basis = target.configuration.basis_gates.includes('cz') ? 'cz' : 'ecr';
  const length = gateLengths(target.properties, basis, assumptions);
  const rep = target.configuration.default_rep_delay;
  const repUs =
    typeof rep === 'number' && Number.isFinite(rep) && rep >= 0 ? rep : DEFAULT_REP_DELAY_US;
  assumptions.push(
    rep === repUs
      ? `pause between shots: the backend's default_rep_delay, ${repUs} µs`
      : `pause between shots assumed ${repUs} µs (no default_rep_delay)`,
  );
  assumptions.push(
    `per-job overhead ${IBM_JOB_OVERHEAD_SECONDS} s, from IBM's own usage estimate of a Bell-circuit job (4.106 s for 4,096 shots)`,
  );
  let totalUs = 0;
  for (const c of circuits) totalUs += circuitDurationNs(c.qasm, length) / 1_000 + repUs;
  const mean = circuits.length === 0 ? 0 : totalUs / circuits.length;
  const jobs = Math.ceil(circuits.length / maxPubsPerJob);
  const perProblem = (mean * shots) / 1e6;
  const qpuSeconds = perProblem * circuits.length + IBM_JOB_OVERHEAD_SECONDS * jobs;
  return {
    provider: 'ibm',
    perProblem: { qpuSeconds: perProblem },
    perJob: { qpuSeconds: IBM_JOB_OVERHEAD_SECONDS },
    problemsPerJob: maxPubsPerJob,
    call: { problems: circuits.length, jobs, qpuSeconds },
    limits: [
      {
        what: 'the Open Plan: 10 minutes of quantum time per 28-day rolling window',
        qpuSeconds: IBM_OPEN_PLAN_SECONDS,
      },
    ],
    circuits: circuits.length,
    shots,
    jobs,
    meanShotMicroseconds: mean,
    qpuSeconds,
    assumptions,
  };
}
