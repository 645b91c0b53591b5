// The sampler of a grid command: `--sampler`, and its options from `--sampler-options` (JSON or
// @file.json) and `--sampler-option key=value` (samplerOptionFlags.ts), over the preset's defaults,
// with the credentials split off. Read by toCommand (gridOptions.ts).
import { splitSecretOptions } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import type { GridSpec, Raw } from '../benchCommand.js';
import { EXPERIMENTS } from '../experiments/registry.js';
import { samplerOptionsFromFlags } from '../samplerOptionFlags.js';
import { assertDataOnly } from '../trust/untrustedOptions.js';
import type { Experiment } from '../types.js';

/**
 * Where each built-in hardware plugin's worker reads its credentials, for the refusal of
 * credentials in a queued `--sampler-options`: the dwave token, the ibm API key (the variables
 * their secret options default to; queueCredentials.test.ts keeps this in step), and braket's AWS chain.
 */
const WORKER_CREDENTIALS = 'DWAVE_API_TOKEN, IBM_CLOUD_API_KEY, the AWS credential chain';

/**
 * `--sampler`, `--sampler-options` and `--sampler-option` (credentials split off, whichever form
 * gave them; none with a queue, which would carry them), with the sampler options the experiment
 * gives its sampled runs: the command line's over the preset's defaults for that sampler.
 *
 * @throws BENCH_INVALID_OPTION for a bad option form, credentials or locations on a queue.
 */
export function samplerOf(experiment: Experiment, raw: Raw, g: GridSpec, queued: boolean) {
  const split = splitSecretOptions(samplerOptionsFromFlags(raw) ?? {});
  const sampler = typeof raw.sampler === 'string' ? raw.sampler : (g.sampler ?? 'exact');
  if (queued && Object.keys(split.secrets).length > 0)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `credentials in --sampler-options or --sampler-option are not sent through the queue: give them to each worker in its environment (${WORKER_CREDENTIALS})`,
    );
  if (queued)
    assertDataOnly(
      split.options,
      '--sampler-options',
      'a queued job may not carry them: give them to each worker (`bench worker --sampler-options`)',
    );
  const own = EXPERIMENTS[experiment].samplerOptions;
  const options = { ...g.samplerDefaults?.[sampler], ...split.options };
  return {
    sampler,
    samplerOptions: own ? own(sampler, options) : options,
    samplerSecrets: split.secrets,
  };
}
