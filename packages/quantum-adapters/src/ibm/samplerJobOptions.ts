// The ibm sampler's job options (dynamical decoupling, twirling, max execution time, tags), checked
// when the sampler is created and mapped to where the `POST jobs` body carries them.
// Field names and values: Qiskit/qiskit-ibm-runtime @ 73514f06603854cae92573c28c8462d4027efcb9,
// qiskit_ibm_runtime/options/{sampler_options, dynamical_decoupling_options, twirling_options}.py
// (under `params.options`, as Qiskit/documentation @ 02cf37a73122 docs/guides/primitives-rest-api.ipynb
// sends them) and api/rest/runtime.py `program_run` (`max_execution_time` → top-level `cost`,
// `job_tags` → `tags`); `cost`'s bounds [0, 10800] from IBM's REST reference, "Run a job",
// https://quantum.cloud.ibm.com/docs/api/qiskit-runtime-rest/tags/jobs (which lists no priority field).
import { echo } from '@boltzmann/ising-core/internal';
import { invalidArgument } from '../shared/errors.js';
import { assertKnownOptions, positiveInt } from '../shared/options.js';
import type { IbmDynamicalDecoupling, IbmSamplerOptions, IbmTwirling } from './ibmSamplerTypes.js';

/** The tag every job of this package carries (the `tags` option adds to it). */
export const IBM_JOB_TAG = 'boltzmann-attention';

/** Largest `cost` (max execution seconds) of a job: 10,800, the REST reference's maximum. */
export const MAX_IBM_JOB_COST_SECONDS = 10_800;

/** What every job of a sampler carries beyond its pubs. */
export interface SamplerJobSettings {
  /** The job's `tags`: {@link IBM_JOB_TAG}, then the option's, without repeats. */
  readonly tags: readonly string[];
  /** `params.options` (snake_case, as sent), when any was given. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The top-level `cost`, when given. */
  readonly maxExecutionTimeSeconds?: number;
}

type Check = (value: unknown, what: string) => unknown;

const bool: Check = (v, what) => {
  if (typeof v !== 'boolean') throw invalidArgument(`${what} must be a boolean, got ${echo(v)}`);
  return v;
};

const oneOf =
  (...allowed: readonly string[]): Check =>
  (v, what) => {
    if (typeof v !== 'string' || !allowed.includes(v))
      throw invalidArgument(
        `${what} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${echo(v)}`,
      );
    return v;
  };

const countOrAuto: Check = (v, what) => {
  if (v === 'auto' || (typeof v === 'number' && Number.isInteger(v) && v >= 1)) return v;
  throw invalidArgument(`${what} must be an integer ≥ 1 or 'auto', got ${echo(v)}`);
};

/** Each camelCase field: its snake_case name in `params.options`, and its check. */
type Fields<T> = { readonly [K in keyof Required<T>]: readonly [wire: string, check: Check] };

const DYNAMICAL_DECOUPLING: Fields<IbmDynamicalDecoupling> = {
  enable: ['enable', bool],
  sequenceType: ['sequence_type', oneOf('XX', 'XpXm', 'XY4')],
  extraSlackDistribution: ['extra_slack_distribution', oneOf('middle', 'edges')],
  schedulingMethod: ['scheduling_method', oneOf('alap', 'asap')],
  skipResetQubits: ['skip_reset_qubits', bool],
};

const TWIRLING: Fields<IbmTwirling> = {
  enableGates: ['enable_gates', bool],
  enableMeasure: ['enable_measure', bool],
  numRandomizations: ['num_randomizations', countOrAuto],
  shotsPerRandomization: ['shots_per_randomization', countOrAuto],
  strategy: ['strategy', oneOf('active', 'active-accum', 'active-circuit', 'all')],
};

/** One option group checked and renamed; `undefined` when absent or empty. */
function wireGroup<T>(
  value: unknown,
  fields: Fields<T>,
  what: string,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw invalidArgument(`${what} must be an object, got ${echo(value)}`);
  assertKnownOptions(`ibm ${what}`, value, Object.keys(fields));
  const out: Record<string, unknown> = {};
  for (const [key, [wire, check]] of Object.entries(fields) as [
    string,
    readonly [string, Check],
  ][]) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[wire] = check(v, `${what}.${key}`);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The job's tags: {@link IBM_JOB_TAG} first, then the option's non-empty strings, without repeats. */
function jobTags(tags: unknown): string[] {
  if (tags === undefined) return [IBM_JOB_TAG];
  if (!Array.isArray(tags))
    throw invalidArgument(`tags must be an array of strings, got ${echo(tags)}`);
  for (const t of tags)
    if (typeof t !== 'string' || t.trim() === '')
      throw invalidArgument(`tags must be non-empty strings, got ${echo(t)} in ${echo(tags)}`);
  return [...new Set([IBM_JOB_TAG, ...(tags as string[])])];
}

/**
 * The job settings of the `dynamicalDecoupling`, `twirling`, `maxExecutionTimeSeconds` and `tags`
 * options, checked.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a group that is not an object, an unknown key
 * in it, a value of the wrong type or outside the allowed ones, a max execution time that is not an
 * integer in [1, 10800], or tags that are not non-empty strings.
 */
export function samplerJobSettings(
  options: Pick<
    IbmSamplerOptions,
    'dynamicalDecoupling' | 'twirling' | 'maxExecutionTimeSeconds' | 'tags'
  >,
): SamplerJobSettings {
  const dd = wireGroup(options.dynamicalDecoupling, DYNAMICAL_DECOUPLING, 'dynamicalDecoupling');
  const twirling = wireGroup(options.twirling, TWIRLING, 'twirling');
  const wire = {
    ...(dd === undefined ? {} : { dynamical_decoupling: dd }),
    ...(twirling === undefined ? {} : { twirling }),
  };
  const cost = options.maxExecutionTimeSeconds;
  return {
    tags: jobTags(options.tags),
    ...(Object.keys(wire).length > 0 ? { options: wire } : {}),
    ...(cost === undefined
      ? {}
      : {
          maxExecutionTimeSeconds: positiveInt(
            cost,
            'maxExecutionTimeSeconds',
            MAX_IBM_JOB_COST_SECONDS,
          ),
        }),
  };
}
