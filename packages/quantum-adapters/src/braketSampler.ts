import { randomUUID } from 'node:crypto';
import { createRng } from '@boltzmann/ising-core';
import type { IsingBatch, SampleResult, SampleSet, SamplerPlugin } from '@boltzmann/ising-core';
import { batchProblemToQasm, openQasmAction } from './braketQasm.js';
import type { BraketRunInfo, BraketSampler, BraketSamplerOptions } from './braketSamplerTypes.js';
import { createDryRunWriter, dryRunError, dryRunFallback } from './dryRun.js';
import { invalidArgument } from './errors.js';
import {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
  limitResponses,
  loadSdk,
} from './internal/braketClients.js';
import { runBraketTask } from './internal/braketTask.js';
import type { BraketTaskContext } from './internal/braketTask.js';
import { BRAKET_ANNEAL_KEYS, BRAKET_OPTION_KEYS } from './internal/optionKeys.js';
import {
  assertAdapterOptions,
  assertBatchFits,
  assertKnownOptions,
  httpUrl,
  positiveInt,
} from './internal/options.js';
import { resolveRetry, runDeadline } from './internal/retry.js';
import type { PollBackoff } from './internal/dwaveRun.js';
import { hardwareCapabilities } from './internal/hardwareCapabilities.js';

export {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
} from './internal/braketClients.js';

/** Amazon Braket's managed state-vector simulator. */
export const SV1_DEVICE_ARN = 'arn:aws:braket:::device/quantum-simulator/amazon/sv1';

/**
 * Creates a `braket` sampler: each batch problem becomes dqa-sim's DQA Trotter circuit in OpenQASM 3,
 * submitted with CreateQuantumTask, polled with GetQuantumTask, and read from `results.json` in S3;
 * measured bit 0 is spin +1.
 *
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for bad options (e.g. no `outputS3Bucket` outside dry runs)
 * and for unknown option keys (also inside `anneal`, `dryRun`, `retry`, `pollBackoff`).
 * @example
 * const sampler = createBraketSampler({ outputS3Bucket: 'amazon-braket-us-east-1-123456789012', shots: 2000 });
 */
export function createBraketSampler(options: BraketSamplerOptions = {}): BraketSampler {
  assertAdapterOptions('braket', options, BRAKET_OPTION_KEYS);
  assertKnownOptions('braket anneal', options.anneal, BRAKET_ANNEAL_KEYS);
  const deviceArn = options.deviceArn ?? SV1_DEVICE_ARN;
  const shots = positiveInt(options.shots ?? 1000, 'shots');
  const maxSpins = positiveInt(options.maxSpins ?? 34, 'maxSpins');
  const deadlineMs = positiveInt(options.deadlineMs ?? 30 * 60_000, 'deadlineMs');
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
  const prefix = options.outputS3KeyPrefix ?? 'boltzmann-attention';
  const deviceRegion = /^arn:aws:braket:([a-z0-9-]+):/.exec(deviceArn)?.[1];
  const region = options.region ?? deviceRegion ?? process.env.AWS_REGION ?? 'us-east-1';
  const writer = options.dryRun ? createDryRunWriter(options.dryRun.dir) : undefined;
  const fallback = options.dryRun
    ? dryRunFallback(options.dryRun, {
        calibrate: 'linear-response',
        ...options.anneal,
        shots,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      })
    : undefined;
  const bucket =
    options.outputS3Bucket ?? (writer ? `amazon-braket-${region}-<account-id>` : undefined);
  if (bucket === undefined)
    throw invalidArgument(
      'the braket sampler needs { outputS3Bucket } (the SDK convention is amazon-braket-<region>-<account-id>)',
    );
  const config = { region, maxAttempts: 1, ...options.clientConfig };
  let braket = options.braketClient;
  let s3 = options.s3Client;
  const rng = createRng(options.seed ?? Date.now());
  let last: BraketRunInfo | undefined;
  const task: BraketTaskContext = {
    braket: () => braket!,
    s3: () => s3!,
    deviceArn,
    bucket,
    prefix,
    shots,
    anneal: options.anneal,
    maxResultBytes,
    backoff,
    timeoutMs,
    policy,
    rng,
  };

  async function sample(batch: IsingBatch): Promise<SampleResult> {
    assertBatchFits(batch, maxSpins, 'braket');
    if (writer) {
      const out = writer.nextCall('braket');
      for (let q = 0; q < batch.size; q++) {
        const id = String(q).padStart(4, '0');
        const source = await batchProblemToQasm(batch, q, options.anneal);
        out.text(`problem-${id}.qasm`, source);
        out.json(`create-quantum-task-${id}.json`, {
          action: openQasmAction(source),
          clientToken: '<a fresh UUID per request>',
          deviceArn,
          outputS3Bucket: bucket,
          outputS3KeyPrefix: prefix,
          shots,
        });
      }
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
      { bytes: maxResultBytes, option: 'maxResultBytes' },
    );
    const arns: string[] = [];
    const keys: string[] = [];
    const pending = new Set<string>();
    const sets: SampleSet[] = new Array(batch.size);
    // The first failure stops every worker (their waits and requests abort with it), so a failed
    // task does not leave the others polling until the deadline.
    const stop = new AbortController();
    const deadline = runDeadline(deadlineMs, 'braket sample() call', stop.signal);
    const { signal } = deadline;
    deadline.signal.addEventListener('abort', () => stop.abort(deadline.signal.reason), {
      once: true,
    });
    let next = 0;
    try {
      const worker = async (): Promise<void> => {
        while (next < batch.size && !stop.signal.aborted) {
          const q = next++;
          try {
            sets[q] = await runBraketTask(task, sdk, batch, q, signal, arns, keys, pending);
          } catch (error) {
            if (!stop.signal.aborted) stop.abort(error);
            throw error;
          }
        }
      };
      await Promise.allSettled(Array.from({ length: Math.min(concurrency, batch.size) }, worker));
      if (stop.signal.aborted) throw stop.signal.reason;
      last = { deviceArn, taskArns: arns, resultKeys: keys, shots };
      options.onRun?.(last);
      return { kind: 'samples', sets };
    } catch (error) {
      await Promise.allSettled(
        [...pending].map((arn) =>
          braket!.send(
            new sdk.braket.CancelQuantumTaskCommand({
              quantumTaskArn: arn,
              clientToken: randomUUID(),
            }),
            { abortSignal: AbortSignal.timeout(5_000) },
          ),
        ),
      );
      throw error;
    } finally {
      deadline.clear();
    }
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
 * const sampler = createSamplerRegistry().register(braketSampler).require('braket').create({ outputS3Bucket: 'my-bucket' });
 */
export const braketSampler: SamplerPlugin<BraketSamplerOptions, BraketSampler, 'braket'> = {
  name: 'braket',
  version: '0.1.0',
  description:
    'Amazon Braket gate-model sampling of the DQA Trotter circuit (OpenQASM 3, SV1 by default)',
  capabilities: hardwareCapabilities(34),
  // AWS credentials (or their provider), and the ready-made SDK clients, whose config holds them.
  secretOptions: ['clientConfig.credentials', 'braketClient', 's3Client'],
  create: (options) => createBraketSampler(options),
};
