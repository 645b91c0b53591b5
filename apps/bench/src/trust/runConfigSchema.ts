/*
 * The one schema of a RunConfig read from outside the process (a queued job): types, ranges and
 * sizes, checked before anything is written, loaded or sent. A config the CLI builds always passes.
 */
import { ATTENTION_VARIANTS } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import type { BenchErrorCode } from '../benchError.js';
import { MAX_JSON_OPTION_DEPTH, MAX_JSON_OPTION_LENGTH, jsonDepth } from '../parseValues.js';
import { MAX_LENGTH as MAX_T } from '../benchCommand.js';
import { earlyStopSettingsProblem } from '../results/earlyStopChecks.js';
import { EXPERIMENT_NAMES } from '../types.js';
import type { RunConfig } from '../types.js';

/** Sampler names and summary columns: a plugin's name, never a path. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$/;

type Check = (value: unknown) => boolean;

const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const num =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const oneOf =
  (...choices: readonly unknown[]): Check =>
  (v) =>
    choices.includes(v);
const bool: Check = (v) => typeof v === 'boolean';
const name: Check = (v) => typeof v === 'string' && NAME.test(v);

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every field of a RunConfig: its check and what the check means, for the message. */
const CONFIG_FIELDS: Readonly<Record<string, readonly [Check, string, 'optional'?]>> = {
  experiment: [oneOf(...EXPERIMENT_NAMES), EXPERIMENT_NAMES.join('/')],
  dataset: [oneOf('shakespeare', 'brackets', 'mqar'), 'shakespeare, brackets or mqar'],
  column: [name, 'a name of letters, digits and . _ : + - (≤ 64)'],
  variant: [oneOf(...ATTENTION_VARIANTS), ATTENTION_VARIANTS.join('/')],
  length: [int(1, MAX_T), `an integer in [1, ${MAX_T}]`],
  seed: [int(0, 2 ** 32 - 1), 'an integer in [0, 2^32)'],
  dModel: [int(1, 4096), 'an integer in [1, 4096]'],
  ffn: [bool, 'a boolean'],
  ffnHidden: [int(1, 16384), 'an integer in [1, 16384]'],
  heads: [int(1, 64), 'an integer in [1, 64]'],
  layers: [int(1, 64), 'an integer in [1, 64]', 'optional'],
  steps: [int(1, 10_000_000), 'an integer in [1, 10^7]'],
  mode: [oneOf('balanced', 'prefix'), 'balanced or prefix'],
  types: [int(1, 3), 'an integer in [1, 3]'],
  sampler: [name, 'a sampler name of letters, digits and . _ : + - (≤ 64)'],
  samplerOptions: [isPlain, 'a JSON object'],
  couplingForm: [
    (v) => v === 'relative' || (typeof v === 'string' && /^banded:\d{1,4}$/.test(v)),
    'relative or banded:w',
    'optional',
  ],
  positions: [oneOf('none'), 'none', 'optional'],
  gpt: [isPlain, 'an object', 'optional'],
  recall: [isPlain, 'an object', 'optional'],
  batchSize: [int(1, 65_536), 'an integer in [1, 65536]'],
  lr: [num(Number.MIN_VALUE, 100), 'a number in (0, 100]'],
  minLrFraction: [num(0, 1), 'a number in [0, 1]'],
  weightDecay: [num(0, 100), 'a number in [0, 100]'],
  clipNorm: [num(Number.MIN_VALUE, 1e6), 'a number in (0, 10^6]'],
  beta: [num(Number.MIN_VALUE, 1e6), 'a number in (0, 10^6]'],
  jInit: [num(0, 100), 'a number in [0, 100]'],
  evalEvery: [int(1, 10_000_000), 'an integer in [1, 10^7]'],
  // Its rule per dataset (0 on brackets) is the experiments' own: evalWindowsFlag.problem.
  evalWindows: [int(0, 1_000_000), 'an integer in [0, 10^6]'],
  // Its fields are checked by earlyStopSettingsProblem, the rule records are read with too.
  earlyStop: [isPlain, 'an object', 'optional'],
};

const GPT_FIELDS: Readonly<Record<string, readonly [Check, string]>> = {
  bias: [bool, 'a boolean'],
  tieEmbeddings: [bool, 'a boolean'],
  dropout: [num(0, 0.99), 'a number in [0, 0.99]'],
  warmupSteps: [int(0, 10_000_000), 'an integer in [0, 10^7]'],
  beta2: [num(0, 0.999999), 'a number in [0, 1)'],
  evalBatches: [int(1, 100_000), 'an integer in [1, 10^5]'],
};

const RECALL_FIELDS: Readonly<Record<string, readonly [Check, string]>> = {
  vocabSize: [int(4, 1 << 24), 'an integer in [4, 2^24]'],
  kvPairs: [int(1, MAX_T / 4), `an integer in [1, ${MAX_T / 4}]`],
  powerA: [num(Number.MIN_VALUE, 1e6), 'a number in (0, 10^6]'],
  trainExamples: [int(1, 10_000_000), 'an integer in [1, 10^7]'],
  testExamples: [int(1, 1_000_000), 'an integer in [1, 10^6]'],
  warmupSteps: [int(0, 10_000_000), 'an integer in [0, 10^7]'],
};

function checkFields(
  value: Record<string, unknown>,
  fields: Readonly<Record<string, readonly [Check, string, 'optional'?]>>,
  prefix: string,
  fail: (message: string) => never,
): void {
  for (const key of Object.keys(value))
    if (!(key in fields)) fail(`${prefix}${echo(key, 40)} is not a field of a run config`);
  for (const [key, [check, what, optional]] of Object.entries(fields)) {
    const v = value[key];
    if (v === undefined && optional === 'optional') continue;
    if (!check(v)) fail(`${prefix}${key} must be ${what}, got ${echo(v, 60)}`);
  }
}

/**
 * Checks a run config read from an untrusted source: every field's type and range, no unknown
 * fields, and sampler options of bounded size and depth. What it accepts makes a run id without
 * a path separator, `..` or a NUL.
 *
 * @param value the parsed config.
 * @param source what it came from, for the message (`job 7`).
 * @param code the error code to throw.
 * @returns the config, typed.
 * @throws `code` (BENCH_INVALID_JOB by default) naming the first bad field.
 */
export function validateRunConfig(
  value: unknown,
  source: string,
  code: BenchErrorCode = 'BENCH_INVALID_JOB',
): RunConfig {
  const fail = (message: string): never => {
    throw new BenchError(code, `${source}: ${message}`);
  };
  if (!isPlain(value)) return fail(`the run config must be an object, got ${echo(value, 60)}`);
  checkFields(value, CONFIG_FIELDS, 'config.', fail);
  if (value.gpt !== undefined)
    checkFields(value.gpt as Record<string, unknown>, GPT_FIELDS, 'config.gpt.', fail);
  if (value.recall !== undefined)
    checkFields(value.recall as Record<string, unknown>, RECALL_FIELDS, 'config.recall.', fail);
  const earlyStop =
    value.earlyStop === undefined ? undefined : earlyStopSettingsProblem(value.earlyStop);
  if (earlyStop !== undefined) fail(`config.earlyStop: ${earlyStop}`);
  if ((value.dModel as number) % (value.heads as number) !== 0)
    fail(`config.heads ${value.heads} must divide config.dModel ${value.dModel}`);
  let size = 0;
  try {
    size = JSON.stringify(value.samplerOptions).length;
  } catch {
    fail('config.samplerOptions is not JSON');
  }
  if (size > MAX_JSON_OPTION_LENGTH)
    fail(
      `config.samplerOptions is ${size.toLocaleString('en-US')} characters of JSON (at most ${MAX_JSON_OPTION_LENGTH.toLocaleString('en-US')})`,
    );
  if (jsonDepth(value.samplerOptions, MAX_JSON_OPTION_DEPTH) > MAX_JSON_OPTION_DEPTH)
    fail(`config.samplerOptions nests deeper than ${MAX_JSON_OPTION_DEPTH} levels`);
  return value as unknown as RunConfig;
}
