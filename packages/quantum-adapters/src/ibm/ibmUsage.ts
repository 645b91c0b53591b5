// What a run would cost in QPU time, before anything is submitted: each routed circuit's duration
// from the device's gate lengths, plus the pause between shots, times the shots.
import type { IbmBackendProperties, IbmTarget, IsaCircuit } from './ibmTypes.js';

/** The QPU time a set of circuits would take, and how it was reckoned. */
export interface IbmUsageEstimate {
  readonly circuits: number;
  readonly shots: number;
  /** Sampler V2 jobs (⌈circuits / maxPubsPerJob⌉). */
  readonly jobs: number;
  /** Mean duration of one shot of one circuit (gates, readout and the pause between shots), in µs. */
  readonly meanShotMicroseconds: number;
  /**
   * circuits × shots × that mean, in seconds: the time the QPU executes them. IBM bills the time it
   * is locked, which adds a per-job overhead this does not model (IBM reports its own estimate only
   * after a job is submitted), so read this as a lower bound.
   */
  readonly qpuSeconds: number;
  /** Where each figure came from: the backend's properties, or the stated defaults. */
  readonly assumptions: readonly string[];
}

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

const STATEMENT = /^([a-z_][a-z0-9_]*)(?:\([^)]*\))?\s+(\$\d+(?:\s*,\s*\$\d+)*)\s*;$/;
const MEASURE = /^c\[\d+\]\s*=\s*measure\s+\$(\d+)\s*;$/;

/** Critical-path duration of one routed circuit, readout included, in ns. */
export function circuitDurationNs(qasm: string, length: Lengths): number {
  const busy = new Map<number, number>();
  const at = (q: number): number => busy.get(q) ?? 0;
  for (const raw of qasm.split('\n')) {
    const line = raw.trim();
    const m = MEASURE.exec(line);
    if (m) {
      const q = Number(m[1]);
      busy.set(q, at(q) + length('measure', [q]));
      continue;
    }
    const g = STATEMENT.exec(line);
    if (!g) continue;
    const qubits = g[2]!.split(',').map((s) => Number(s.trim().slice(1)));
    const end = Math.max(...qubits.map(at)) + length(g[1]!, qubits);
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
 * const { qpuSeconds, jobs } = estimateIbmUsage(circuits, 1000, target, 300);
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
  assumptions.push('per-job overhead (compilation, loading, result transfer) not included');
  let totalUs = 0;
  for (const c of circuits) totalUs += circuitDurationNs(c.qasm, length) / 1_000 + repUs;
  const mean = circuits.length === 0 ? 0 : totalUs / circuits.length;
  return {
    circuits: circuits.length,
    shots,
    jobs: Math.ceil(circuits.length / maxPubsPerJob),
    meanShotMicroseconds: mean,
    qpuSeconds: (totalUs * shots) / 1e6,
    assumptions,
  };
}
