/*
 * The schema of a queued job's payload (`job.data`), checked by a worker before any side effect:
 * nothing from Redis is written, loaded or sent until it has passed. Job data is data: it may
 * choose what to compute, never where files, requests or credentials go, or which code runs
 * (see ../untrustedOptions.ts and the bench README's Security section).
 */
import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import { evalWindowsFlag } from '../experiments/taskFlags.js';
import { jobIdOf } from './queueJobs.js';
import type { RunJobData } from './queueJobs.js';
import { validateRunConfig } from '../trust/runConfigSchema.js';
import { assertDataOnly } from '../trust/untrustedOptions.js';

/**
 * Marker put in place of `job.data` when the job in Redis cannot be read as a bench job (data
 * that is not JSON, malformed options; see queueWorker.ts): its value says why.
 */
export const MALFORMED_JOB_KEY = '__benchMalformedJob';

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const SETTINGS: Readonly<Record<string, (v: unknown) => boolean>> = {
  checkpointEvery: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  logEvery: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  saveModels: (v) => v === undefined || typeof v === 'boolean',
};

/**
 * Validates a job's payload against the one schema of a bench run: version, config (types,
 * ranges, sizes: see runConfigSchema.ts), the code commit, the settings a job may carry, sampler
 * options that are data only, and a job id that matches the config (so the id, and every file
 * name made from it, comes from validated fields).
 *
 * @param data `job.data` as BullMQ parsed it.
 * @param jobId the job's id.
 * @returns the payload, typed.
 * @throws BENCH_INVALID_JOB for a payload that is not a bench run; BENCH_FORBIDDEN_OPTION for
 *   one that names a location, a plugin, a data path or a credential.
 */
export function parseRunJob(data: unknown, jobId: string): RunJobData {
  const source = `job ${echo(jobId, 80)}`;
  const fail = (message: string): never => {
    throw new BenchError('BENCH_INVALID_JOB', `${source}: ${message}`);
  };
  if (isPlain(data) && typeof data[MALFORMED_JOB_KEY] === 'string')
    fail(data[MALFORMED_JOB_KEY] as string);
  if (!isPlain(data) || data.version !== 1)
    return fail(`not a bench run (version ${echo(isPlain(data) ? data.version : data, 40)})`);
  const extra = Object.keys(data).find(
    (k) => !['version', 'config', 'commit', 'settings', 'checkpoint', 'metrics'].includes(k),
  );
  if (extra !== undefined) fail(`${echo(extra, 40)} is not a field of a bench job`);
  if (
    !(
      data.commit === null ||
      (typeof data.commit === 'string' && /^[0-9a-f]{7,64}$/.test(data.commit))
    )
  )
    fail(`commit must be a git hash or null, got ${echo(data.commit, 60)}`);
  checkSettings(data.settings, source, fail);
  if (
    data.checkpoint !== undefined &&
    typeof data.checkpoint !== 'string' &&
    !isPlain(data.checkpoint)
  )
    fail('checkpoint must be base64 text (a safetensors file) or an object (JSON)');
  if (data.metrics !== undefined && typeof data.metrics !== 'string')
    fail('metrics must be the text of a metrics file');
  const config = validateRunConfig(data.config, source);
  const windows = evalWindowsFlag.problem(config);
  if (windows !== undefined) fail(windows);
  assertDataOnly(
    config.samplerOptions,
    source,
    'start each worker with `bench worker --sampler-options` for such options, and credentials in its environment',
  );
  if (jobIdOf(config, data.commit as string | null) !== jobId)
    fail('its id is not the id of the run its config describes');
  return data as unknown as RunJobData;
}

function checkSettings(value: unknown, source: string, fail: (message: string) => never): void {
  if (!isPlain(value)) return void fail('settings must be an object');
  for (const key of Object.keys(value)) {
    if (key === 'plugins' || key === 'dataPath') {
      throw new BenchError(
        'BENCH_FORBIDDEN_OPTION',
        `${source} sets settings.${key}: a job may not name files or code for the worker to load; start the worker with --plugin / --data`,
      );
    }
    const check = SETTINGS[key];
    if (check === undefined) fail(`settings.${echo(key, 40)} is not a setting a job may carry`);
    else if (!check(value[key])) fail(`settings.${key} is ${echo(value[key], 40)}`);
  }
  if (value.checkpointEvery === undefined || value.logEvery === undefined)
    fail('settings must give checkpointEvery and logEvery');
}

/** The options a bench job carries (queueJobs.ts enqueues them) and what each may be. */
const JOB_OPTIONS: Readonly<Record<string, (v: unknown) => boolean>> = {
  jobId: (v) => typeof v === 'string',
  // 0 is BullMQ's own default (one try), stored when a job names none.
  attempts: (v) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= 1000,
  removeOnComplete: (v) =>
    typeof v === 'boolean' || (Number.isSafeInteger(v) && (v as number) >= 0),
  removeOnFail: (v) => typeof v === 'boolean' || (Number.isSafeInteger(v) && (v as number) >= 0),
};

/**
 * Why a job's options as Redis holds them (`opts`, JSON) are not a bench job's, or undefined.
 * BullMQ acts on them before any processor runs (a `repeat` schedules copies, `attempts` and
 * `backoff` feed its scripts): malformed ones must fail the job, not break the worker's loop.
 *
 * @param raw the job hash's `opts` field.
 */
export function jobOptionsProblem(raw: string | undefined): string | undefined {
  let opts: unknown;
  try {
    opts = JSON.parse(raw ?? '{}');
  } catch (error) {
    return `its options in Redis are malformed: not JSON (${echo((error as Error).message, 80)})`;
  }
  if (!isPlain(opts))
    return `its options in Redis are malformed: ${echo(opts, 40)} is not an object`;
  for (const [key, value] of Object.entries(opts)) {
    const check = JOB_OPTIONS[key];
    if (check === undefined)
      return `its options in Redis are malformed: ${echo(key, 40)} is not an option of a bench job`;
    if (!check(value)) return `its options in Redis are malformed: ${key} is ${echo(value, 40)}`;
  }
  return undefined;
}
