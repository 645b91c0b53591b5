// A run's environment (RunEnvironment): read off this process and machine when the run finishes,
// checked when a record is read, and named in one line for the report.
import { cpus, platform, release, totalmem } from 'node:os';
import { echo } from '@boltzmann/ising-core/internal';
import type { RunEnvironment, RunRecord } from '../recordTypes.js';

/**
 * The environment of a run training in this process now.
 *
 * @param workers the grid's `--workers`, when known.
 */
export function currentEnvironment(workers?: number): RunEnvironment {
  const cores = cpus();
  return {
    node: process.version,
    platform: platform(),
    osRelease: release(),
    arch: process.arch,
    cpuModel: cores[0]?.model.trim() || 'unknown',
    logicalCores: cores.length,
    totalMemoryBytes: totalmem(),
    ...(workers === undefined ? {} : { workers }),
  };
}

const TEXT_FIELDS = ['node', 'platform', 'osRelease', 'arch', 'cpuModel'] as const;
const COUNT_FIELDS = ['logicalCores', 'totalMemoryBytes', 'workers'] as const;

/** Why a record's `environment` is not one (absent is fine: older records), or undefined. */
export function environmentProblem(record: Pick<RunRecord, 'environment'>): string | undefined {
  const env: unknown = record.environment;
  if (env === undefined) return undefined;
  if (env === null || typeof env !== 'object' || Array.isArray(env))
    return `its environment is ${echo(env, 60)}, not an object`;
  const e = env as Record<string, unknown>;
  for (const key of Object.keys(e))
    if (![...TEXT_FIELDS, ...COUNT_FIELDS].includes(key as never))
      return `its environment has an unknown field ${echo(key, 40)}`;
  for (const key of TEXT_FIELDS)
    if (typeof e[key] !== 'string' || (e[key] as string).length > 200)
      return `its environment.${key} must be a string of at most 200 characters, got ${echo(e[key], 40)}`;
  for (const key of COUNT_FIELDS) {
    if (key === 'workers' && e[key] === undefined) continue;
    if (!Number.isSafeInteger(e[key]) || (e[key] as number) < 0)
      return `its environment.${key} must be an integer ≥ 0, got ${echo(e[key], 40)}`;
  }
  return undefined;
}

/** Bytes as GiB with one decimal (`15.6 GiB`). */
const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/**
 * One line naming the machine a run trained on: its engine, the CPU, the OS, Node and the
 * workers, without the commit (`native avx2 (8 lanes), 1 thread; AMD EPYC × 2 logical cores, 23.5
 * GiB; linux x64 6.18; Node v20.20.2; workers 2`). Runs with the same line share a machine, so
 * their times compare. Records without an environment say so.
 */
export function machineLine(r: RunRecord): string {
  const engine = r.engine?.line.replace(/^engine: /, '') ?? 'engine not recorded';
  const e = r.environment;
  if (e === undefined) return `${engine}; machine not recorded`;
  return [
    engine,
    `${e.cpuModel} × ${e.logicalCores} logical cores, ${gib(e.totalMemoryBytes)}`,
    `${e.platform} ${e.arch} ${e.osRelease}`,
    `Node ${e.node}`,
    ...(e.workers === undefined ? [] : [`workers ${e.workers}`]),
  ].join('; ');
}

/** A run's commit as the report names it: its first 12 hex digits, or `unknown`. */
export const shortCommit = (r: RunRecord): string => r.gitCommit?.slice(0, 12) ?? 'unknown';

/** {@link machineLine} and the commit (`…; workers 2; git 931cfdc4a1b2`): where a run trained. */
export function environmentLine(r: RunRecord): string {
  return `${machineLine(r)}; git ${shortCommit(r)}`;
}
