// The IBM Quantum path's shared shapes: what a backend says about itself (Runtime's
// `configuration` and `properties`), the target a circuit is routed onto, and the routed (ISA)
// circuit with what decoding needs. A leaf: types only.

/**
 * The fields of `GET /backends/{name}/configuration` that routing reads.
 *
 * @category IBM Quantum
 */
export interface IbmBackendConfiguration {
  readonly backend_name: string;
  readonly n_qubits: number;
  /** E.g. `["cz","id","rz","sx","x"]` (Heron), `["ecr","id","rz","sx","x"]` (Eagle), `+ "rzz"` with fractional gates. */
  readonly basis_gates: readonly string[];
  /** Directed pairs `[control, target]` the two-qubit gate is calibrated on. */
  readonly coupling_map: readonly (readonly [number, number])[];
  /** Most circuits (pubs) in one job, when the backend says. */
  readonly max_experiments?: number;
  /** Most shots per circuit, when the backend says. */
  readonly max_shots?: number;
  /** Default pause between shots, in µs (IBM reports e.g. 250). */
  readonly default_rep_delay?: number;
  readonly processor_type?: { readonly family?: string; readonly revision?: string | number };
}

/**
 * One `{ name, value, unit }` entry of `properties`.
 *
 * @category IBM Quantum
 */
export interface IbmNduv {
  readonly name: string;
  readonly value: number;
  readonly unit?: string;
}

/**
 * The fields of `GET /backends/{name}/properties` that qubit selection and cost estimates read.
 *
 * @category IBM Quantum
 */
export interface IbmBackendProperties {
  /** When the calibration was last updated (ISO 8601), when the backend says. */
  readonly last_update_date?: string;
  /** Per physical qubit: `T1`, `T2`, `readout_error`, `readout_length`, … */
  readonly qubits?: readonly (readonly IbmNduv[])[];
  /** Per calibrated gate: `gate_error`, `gate_length` (ns). */
  readonly gates?: readonly {
    readonly gate: string;
    readonly qubits: readonly number[];
    readonly parameters: readonly IbmNduv[];
  }[];
}

/**
 * `GET /backends/{name}/status`, as Runtime's API reference shows it. [UNCERTAIN] Only the
 * reference's example fixes these fields; every one is optional here, and others pass through.
 * @summary `GET /backends/{name}/status`, as Runtime's API reference shows it.
 * @category IBM Quantum
 */
export interface IbmBackendStatus {
  readonly backend_name?: string;
  readonly backend_version?: string;
  /** True when the backend is operational. */
  readonly state?: boolean;
  /** E.g. `"active"`, `"paused"`, `"internal"`. */
  readonly status?: string;
  readonly message?: string;
  /** Jobs waiting in the backend's queue. */
  readonly length_queue?: number;
  readonly [key: string]: unknown;
}

/**
 * The native two-qubit gate a circuit is decomposed into.
 *
 * @category IBM Quantum
 */
export type IbmTwoQubitBasis = 'cz' | 'ecr';

/**
 * A device to route onto: its gates, its couplings and (optionally) its calibration.
 *
 * @category IBM Quantum
 */
export interface IbmTarget {
  readonly configuration: IbmBackendConfiguration;
  readonly properties?: IbmBackendProperties;
  /** Emit couplings as fractional `rzz` (angles folded into [0, π/2]) when the basis has it (default false). */
  readonly fractionalGates?: boolean;
}

/**
 * Gate counts and depth of a routed circuit (what the dry run reports).
 *
 * @category IBM Quantum
 */
export interface IsaCircuitStats {
  /** Longest chain of gates on any qubit (measurements excluded). */
  readonly depth: number;
  /** Two-qubit gates (`cz`, `ecr` or `rzz`). */
  readonly twoQubitGates: number;
  /** Count of every gate name. */
  readonly gateCounts: Readonly<Record<string, number>>;
  /** Layers of the swap network per Trotter step (n for dense couplings, fewer for banded). */
  readonly swapLayersPerStep: number;
}

/**
 * A routed circuit in the device's native gates on physical qubits (`$k`), ready for a Sampler V2
 * pub, with what decoding needs.
 * @category IBM Quantum
 */
export interface IsaCircuit {
  /** OpenQASM 3 text: `bit[n] c;`, gates on `$k`, `c[k] = measure $physical[k];`. */
  readonly qasm: string;
  /** The classical register's name (`c`). */
  readonly register: string;
  /** Physical qubit of each position on the chosen path (length n). */
  readonly physicalQubits: readonly number[];
  /** Classical bit k holds logical spin `logicalOfBit[k]` (the final permutation of the swap network). */
  readonly logicalOfBit: readonly number[];
  readonly stats: IsaCircuitStats;
}
