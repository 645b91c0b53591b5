// QPU access time of one D-Wave problem, before it is sent, from the solver's `problem_timing_data`
// property: the formula of dwave-cloud-client's `StructuredSolver.estimate_qpu_access_time`
// (dwavesystems/dwave-cloud-client@27cd70ef7444, dwave/cloud/solver.py), which implements D-Wave's
// "Operation and Timing" breakdown T = T_p + T_s, T_s = R·(T_a + T_r + T_d)
// (https://docs.dwavesys.com/docs/latest/timing_qa_cycle_time.html).
import type { SapiSolver } from './sapiTypes.js';

/**
 * The `problem_timing_data` fields the formula reads (µs unless named otherwise).
 *
 * @category D-Wave
 */
export interface DwaveTimingData {
  readonly version: string;
  readonly typical_programming_time: number;
  readonly reverse_annealing_with_reinit_prog_time_delta: number;
  readonly reverse_annealing_without_reinit_prog_time_delta: number;
  readonly default_programming_thermalization: number;
  readonly default_annealing_time: number;
  readonly readout_time_model: string;
  /** Breakpoints: the first half qubit counts, the second half readout times (both log10 for `pwl_log_log`). */
  readonly readout_time_model_parameters: readonly number[];
  readonly qpu_delay_time_per_sample: number;
  readonly reverse_annealing_with_reinit_delay_time_delta: number;
  readonly reverse_annealing_without_reinit_delay_time_delta: number;
  readonly decorrelation_max_nominal_anneal_time: number;
  readonly decorrelation_time_range: readonly [number, number];
  readonly default_readout_thermalization: number;
}

/**
 * Where a field is missing: the values dwave-cloud-client records for an Advantage 4.1 system in
 * August 2022 (`qpu_problem_timing_data('advantage')`, dwave/cloud/testing/mocks.py
 * @27cd70ef7444), the only published `problem_timing_data` of a whole system we know of.
 * @category D-Wave
 */
export const ADVANTAGE_4_1_TIMING: DwaveTimingData = {
  version: '1.0.0',
  typical_programming_time: 14072.88,
  reverse_annealing_with_reinit_prog_time_delta: 0.0,
  reverse_annealing_without_reinit_prog_time_delta: 5.55,
  default_programming_thermalization: 1000.0,
  default_annealing_time: 20.0,
  readout_time_model: 'pwl_log_log',
  readout_time_model_parameters: [
    0.0, 0.7699665876947938, 1.7242758696010096, 2.711975459489206, 3.1639057672764026,
    3.750276915153992, 1.539131714800995, 1.8726623164229292, 2.125631787097315, 2.332672340068556,
    2.371606651233025, 2.3716219271760215,
  ],
  qpu_delay_time_per_sample: 20.54,
  reverse_annealing_with_reinit_delay_time_delta: -4.5,
  reverse_annealing_without_reinit_delay_time_delta: -1.5,
  decorrelation_max_nominal_anneal_time: 2000.0,
  decorrelation_time_range: [500.0, 10000.0],
  default_readout_thermalization: 0.0,
};

const SOURCE = 'dwave-cloud-client@27cd70ef7444 estimate_qpu_access_time';

/**
 * One problem's estimated QPU access time and how it was reckoned.
 *
 * @category D-Wave
 */
export interface DwaveAccessTime {
  readonly microseconds: number;
  readonly programmingUs: number;
  readonly samplingPerReadUs: number;
  readonly readoutUs: number;
  /** One line per field taken from elsewhere than the solver's `problem_timing_data`. */
  readonly assumptions: readonly string[];
}

type Timing = { -readonly [K in keyof DwaveTimingData]: DwaveTimingData[K] };

/** The solver's timing data, each missing field from its top-level property or {@link ADVANTAGE_4_1_TIMING}. */
export function timingDataOf(solver: SapiSolver): { data: DwaveTimingData; assumptions: string[] } {
  const raw = solver.properties.problem_timing_data;
  const given = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const assumptions: string[] = [];
  const data = { ...ADVANTAGE_4_1_TIMING } as Timing;
  const missing: string[] = [];
  for (const key of Object.keys(ADVANTAGE_4_1_TIMING) as (keyof DwaveTimingData)[]) {
    const v = given[key];
    const fallback = ADVANTAGE_4_1_TIMING[key];
    const same =
      typeof fallback === 'number'
        ? typeof v === 'number' && Number.isFinite(v)
        : typeof fallback === 'string'
          ? typeof v === 'string'
          : Array.isArray(v) && v.every((x) => typeof x === 'number');
    if (same) (data as Record<string, unknown>)[key] = v;
    else {
      // The solver's top-level defaults (documented solver properties of the same name) come next.
      const top = solver.properties[key];
      if (key.startsWith('default_') && typeof top === 'number') {
        (data as Record<string, unknown>)[key] = top;
        assumptions.push(`${key} from the solver's top-level property (${top} µs)`);
      } else missing.push(key);
    }
  }
  if (missing.length === Object.keys(ADVANTAGE_4_1_TIMING).length)
    assumptions.push(
      `solver ${solver.identity.name} has no problem_timing_data: every timing figure is Advantage 4.1's of August 2022 as dwave-cloud-client records it (testing/mocks.py @27cd70ef7444)`,
    );
  else if (missing.length > 0)
    assumptions.push(
      `problem_timing_data lacks ${missing.join(', ')}: Advantage 4.1's values of August 2022 used (dwave-cloud-client testing/mocks.py @27cd70ef7444)`,
    );
  if (!data.version.startsWith('1.0.'))
    assumptions.push(
      `timing model version ${data.version}: the formula is that of version 1.0.x (${SOURCE})`,
    );
  return { data, assumptions };
}

/** Linear interpolation at `x` through breakpoints `xs` → `ys`, clamped at both ends as numpy.interp. */
function interp(x: number, xs: readonly number[], ys: readonly number[]): number {
  if (x <= xs[0]!) return ys[0]!;
  for (let i = 1; i < xs.length; i++) {
    if (x <= xs[i]!) {
      const t = (x - xs[i - 1]!) / (xs[i]! - xs[i - 1]!);
      return ys[i - 1]! + t * (ys[i]! - ys[i - 1]!);
    }
  }
  return ys[ys.length - 1]!;
}

/** Readout time of one sample of `numQubits` qubits by the solver's readout model. */
function readoutTime(data: DwaveTimingData, numQubits: number, assumptions: string[]): number {
  const p = data.readout_time_model_parameters;
  const half = p.length / 2;
  let model = data.readout_time_model;
  let params = p;
  if (!Number.isInteger(half) || half < 1 || !['pwl_log_log', 'pwl_linear'].includes(model)) {
    assumptions.push(
      `readout_time_model ${model} with ${p.length} parameters is not one the formula knows: Advantage 4.1's readout model used`,
    );
    model = ADVANTAGE_4_1_TIMING.readout_time_model;
    params = ADVANTAGE_4_1_TIMING.readout_time_model_parameters;
  }
  const n = params.length / 2;
  const q = params.slice(0, n);
  const t = params.slice(n);
  return model === 'pwl_log_log'
    ? 10 ** interp(Math.log10(numQubits), q, t)
    : interp(numQubits, q, t);
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/**
 * The QPU access time of one problem on `solver` that uses `numQubits` qubits, with the SAPI
 * parameters it is sent with (`num_reads`, `annealing_time` or `anneal_schedule`,
 * `programming_thermalization`, `readout_thermalization`, `reduce_intersample_correlation`,
 * `reinitialize_state`, reverse annealing), as dwave-cloud-client's `estimate_qpu_access_time`:
 * `T_p + R·(T_a + T_r + T_delay + T_ra + max(readout_thermalization, decorrelation))`.
 *
 * @summary The QPU access time of one problem on a D-Wave solver, as dwave-cloud-client estimates it.
 * @example
 * // not run: the solver's timing data come from D-Wave Leap (DWAVE_API_TOKEN)
 * import { createSapiClient, dwaveAccessTime, selectDwaveSolver } from '@boltzmann/quantum-adapters';
 *
 * const solver = selectDwaveSolver(await createSapiClient().listSolvers(), { topology: 'pegasus' });
 * console.log(dwaveAccessTime(solver, 1000, { num_reads: 100 }).microseconds); // 15341.6 on Advantage 4.1's data
 * @category D-Wave
 */
export function dwaveAccessTime(
  solver: SapiSolver,
  numQubits: number,
  params: Readonly<Record<string, unknown>>,
): DwaveAccessTime {
  const { data, assumptions } = timingDataOf(solver);
  const reads = num(params.num_reads) ?? 1;
  const schedule = Array.isArray(params.anneal_schedule)
    ? (params.anneal_schedule as unknown[][])
    : undefined;
  const reverse = schedule !== undefined && schedule[0]?.[1] === 1;
  const reinit = params.reinitialize_state === true;
  const raProgramming = !reverse
    ? 0
    : reinit
      ? data.reverse_annealing_with_reinit_prog_time_delta
      : data.reverse_annealing_without_reinit_prog_time_delta;
  const raDelay = !reverse
    ? 0
    : reinit
      ? data.reverse_annealing_with_reinit_delay_time_delta
      : data.reverse_annealing_without_reinit_delay_time_delta;
  const programmingUs =
    data.typical_programming_time +
    raProgramming +
    (num(params.programming_thermalization) || data.default_programming_thermalization);
  const lastPoint = num(schedule?.[schedule.length - 1]?.[0]);
  const annealUs = num(params.annealing_time) || lastPoint || data.default_annealing_time;
  const readoutUs = readoutTime(data, numQubits, assumptions);
  const thermalization = num(params.readout_thermalization) || data.default_readout_thermalization;
  const [rMin, rMax] = data.decorrelation_time_range;
  const decorrelation =
    params.reduce_intersample_correlation === true
      ? (annealUs / data.decorrelation_max_nominal_anneal_time) * (rMax - rMin) + rMin
      : 0;
  const samplingPerReadUs =
    annealUs +
    readoutUs +
    data.qpu_delay_time_per_sample +
    raDelay +
    Math.max(thermalization, decorrelation);
  return {
    microseconds: reads * samplingPerReadUs + programmingUs,
    programmingUs,
    samplingPerReadUs,
    readoutUs,
    assumptions,
  };
}
