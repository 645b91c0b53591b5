// The `braket` sampler: options checked once, then per sample() call the SDK clients made on first
// use and the batch's quantum tasks run (braketRun.ts), or written as a dry run.
import { createRng } from '@boltzmann/ising-core';
import type { IsingBatch, SampleResult, SamplerPlugin } from '@boltzmann/ising-core';
import { runBraketTasks, writeBraketDryRun } from './braketRun.js';
import type { BraketRunInfo, BraketSampler, BraketSamplerOptions } from './braketSamplerTypes.js';
import { createDryRunWriter, dryRunError, dryRunFallback } from '../shared/dryRun.js';
import { invalidArgument } from '../shared/errors.js';
import {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
  limitResponses,
  loadSdk,
} from './braketClients.js';
import type { BraketTaskContext } from './braketTask.js';
import { ANNEAL_CIRCUIT_KEYS } from '../shared/options.js';
import { BRAKET_OPTIONS } from './braketOptionSpecs.js';
import {
  assertAdapterOptions,
  assertBatchFits,
  assertKnownOptions,
  httpUrl,
  positiveInt,
} from '../shared/options.js';
import { MAX_DEADLINE_MS, resolveRetry } from '../shared/retry.js';
import type { PollBackoff } from '../shared/retry.js';
import { hardwareCapabilities } from '../shared/hardwareCapabilities.js';

export {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
} from './braketClients.js';

/**
 * Amazon Braket's managed state-vector simulator.
 *
 * @category Amazon Braket
 */
export const SV1_DEVICE_ARN = 'arn:aws:braket:::device/quantum-simulator/amazon/sv1';

/** The sizes and limits of a `braket` sampler, defaulted and checked (in this order). */
function braketLimits(options: BraketSamplerOptions) {
  const deviceArn = options.deviceArn ?? SV1_DEVICE_ARN;
  const shots = positiveInt(options.shots ?? 1000, 'shots');
  const maxSpins = positiveInt(options.maxSpins ?? 34, 'maxSpins');
  const deadlineMs = positiveInt(options.deadlineMs ?? 30 * 60_000, 'deadlineMs', MAX_DEADLINE_MS);
  const concurrency = positiveInt(options.concurrency ?? 4, 'concurrency');
  const timeoutMs = positiveInt(options.requestTimeoutMs ?? 30_000, 'requestTimeoutMs');
  const maxResponseBytes = positiveInt(
    options.maxResponseBytes ?? DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
  );
  const maxResultBytes = positiveInt(
    options.maxResultBytes ?? DEFAULT_BRAKET_MAX_RESULT_BYTES,
    'maxResultBytes',
  );
  if (options.endpoint !== undefined) httpUrl(options.endpoint, 'endpoint');
  if (options.s3Endpoint !== undefined) httpUrl(options.s3Endpoint, 's3Endpoint');
  const policy = resolveRetry(options.retry);
  const backoff: PollBackoff = {
    initialMs: 250,
    factor: 1.5,
    maxMs: 5_000,
    ...options.pollBackoff,
  };
  const limits = { shots, maxSpins, deadlineMs, concurrency, timeoutMs, maxResponseBytes };
  return { deviceArn, ...limits, maxResultBytes, policy, backoff };
}

/**
 * Where the results go: the bucket, the key prefix and the region. A dry run sends nothing, so
 * without `outputS3Bucket` its files show the SDK's bucket pattern with a literal `<account-id>`
 * (what the user fills in); a real run without a bucket is refused by the caller.
 */
function braketOutput(options: BraketSamplerOptions, deviceArn: string, dryRun: boolean) {
  const prefix = options.outputS3KeyPrefix ?? 'boltzmann-attention';
  const deviceRegion = /^arn:aws:braket:([a-z0-9-]+):/.exec(deviceArn)?.[1];
  const region = options.region ?? deviceRegion ?? process.env.AWS_REGION ?? 'us-east-1';
  const bucket =
    options.outputS3Bucket ?? (dryRun ? `amazon-braket-${region}-<account-id>` : undefined);
  return { prefix, region, bucket };
}

/**
 * Creates a `braket` sampler: each batch problem becomes dqa-sim's DQA Trotter circuit in OpenQASM 3,
 * submitted with CreateQuantumTask, polled with GetQuantumTask, and read from `results.json` in S3;
 * measured bit 0 is spin +1.
 *
 * @summary Creates a `braket` sampler.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for bad options (e.g. no `outputS3Bucket` outside dry runs)
 * and for unknown option keys (also inside `anneal`, `dryRun`, `retry`, `pollBackoff`).
 * @example
 * // not run: it creates quantum tasks on Amazon Braket (AWS credentials, an S3 bucket)
 * import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
 * import { createBraketSampler } from '@boltzmann/quantum-adapters';
 *
 * const sampler = createBraketSampler({ outputS3Bucket: 'amazon-braket-us-east-1-123456789012', shots: 2000 });
 * const batch = causalBatch(new Float64Array(16), new Float64Array(16).fill(0.1), { batch: 1, length: 4 });
 * console.log((await estimateBatch(sampler, batch)).magnetization);
 * @category Amazon Braket
 */
export function createBraketSampler(options: BraketSamplerOptions = {}): BraketSampler {
  assertAdapterOptions('braket', options, BRAKET_OPTIONS);
  assertKnownOptions('braket anneal', options.anneal, ANNEAL_CIRCUIT_KEYS);
  const { deviceArn, shots, maxSpins, deadlineMs, concurrency, maxResponseBytes, ...rest } =
    braketLimits(options);
  const writer = options.dryRun ? createDryRunWriter(options.dryRun.dir) : undefined;
  const fallback = options.dryRun
    ? dryRunFallback(options.dryRun, {
        calibrate: 'linear-response',
        ...options.anneal,
        shots,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      })
    : undefined;
  const { prefix, region, bucket } = braketOutput(options, deviceArn, writer !== undefined);
  if (bucket === undefined)
    throw invalidArgument(
      'the braket sampler needs { outputS3Bucket } (the SDK convention is amazon-braket-<region>-<account-id>)',
    );
  const config = { region, maxAttempts: 1, ...options.clientConfig };
  let braket = options.braketClient;
  let s3 = options.s3Client;
  let last: BraketRunInfo | undefined;
  const task: BraketTaskContext = {
    braket: () => braket!,
    s3: () => s3!,
    deviceArn,
    bucket,
    prefix,
    shots,
    anneal: options.anneal,
    maxResultBytes: rest.maxResultBytes,
    backoff: rest.backoff,
    timeoutMs: rest.timeoutMs,
    policy: rest.policy,
    rng: createRng(options.seed ?? Date.now()),
  };

  async function sample(batch: IsingBatch): Promise<SampleResult> {
    assertBatchFits(batch, maxSpins, 'braket');
    if (writer) {
      const out = writer.nextCall('braket');
      await writeBraketDryRun(out, batch, options.anneal, task);
      if (fallback) return await fallback(batch);
      throw dryRunError(out, `${batch.size} Braket quantum tasks`);
    }
    const sdk = await loadSdk();
    const answers = { bytes: maxResponseBytes, option: 'maxResponseBytes' };
    braket ??= limitResponses(
      new sdk.braket.BraketClient({
        ...config,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      }),
      answers,
    );
    s3 ??= limitResponses(
      new sdk.s3.S3Client({
        ...config,
        ...(options.s3Endpoint ? { endpoint: options.s3Endpoint, forcePathStyle: true } : {}),
      }),
      answers,
      { bytes: rest.maxResultBytes, option: 'maxResultBytes' },
    );
    const run = await runBraketTasks(task, sdk, braket, batch, { concurrency, deadlineMs });
    last = { deviceArn, taskArns: run.arns, resultKeys: run.keys, shots };
    options.onRun?.(last);
    return { kind: 'samples', sets: run.sets };
  }

  return {
    name: 'braket',
    capabilities: hardwareCapabilities(maxSpins),
    sample,
    lastRunInfo: () => last,
    dispose() {
      if (!options.braketClient) braket?.destroy();
      if (!options.s3Client) s3?.destroy();
      braket = options.braketClient;
      s3 = options.s3Client;
    },
  };
}

/**
 * The `braket` sampler plugin (Amazon Braket, OpenQASM 3 DQA circuits). `create(options)` calls
 * {@link createBraketSampler}.
 *
 * @example
 * import { createSamplerRegistry } from '@boltzmann/ising-core';
 * import { braketSampler } from '@boltzmann/quantum-adapters';
 *
 * const registry = createSamplerRegistry().register(braketSampler);
 * const sampler = registry.require('braket').create({ outputS3Bucket: 'my-bucket' }); // AWS credential chain
 * console.log(sampler.name);
 * @category Amazon Braket
 */
export const braketSampler: SamplerPlugin<BraketSamplerOptions, BraketSampler, 'braket'> = {
  name: 'braket',
  version: '0.1.0',
  description:
    'Amazon Braket gate-model sampling of the DQA Trotter circuit (OpenQASM 3, SV1 by default)',
  capabilities: hardwareCapabilities(34),
  options: BRAKET_OPTIONS,
  // AWS credentials (or their provider), and the ready-made SDK clients, whose config holds them.
  secretOptions: ['clientConfig.credentials', 'braketClient', 's3Client'],
  create: (options) => createBraketSampler(options),
};
