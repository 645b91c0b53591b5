import { randomUUID } from 'node:crypto';
import type {
  BraketClient,
  BraketClientConfig,
  CreateQuantumTaskCommandInput,
} from '@aws-sdk/client-braket';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { QasmOptions } from '@boltzmann/dqa-sim';
import { createRng, echo } from '@boltzmann/ising-core';
import type {
  IsingBatch,
  SampleResult,
  SampleSet,
  Sampler,
  SamplerCapabilities,
  SamplerPlugin,
} from '@boltzmann/ising-core';
import { batchProblemToQasm, openQasmAction } from './braketQasm.js';
import { decodeBraketResults } from './braketResults.js';
import { classifyBraketError } from './classifyBraketError.js';
import { createDryRunWriter, dryRunError, dryRunFallback } from './dryRun.js';
import type { DryRunOptions } from './dryRun.js';
import { AdapterError, invalidArgument, isAdapterError, malformed } from './errors.js';
import {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
  limitResponses,
  readResultsJson,
} from './internal/braketClients.js';
import { BRAKET_ANNEAL_KEYS, BRAKET_OPTION_KEYS } from './internal/optionKeys.js';
import {
  assertAdapterOptions,
  assertBatchFits,
  assertKnownOptions,
  httpUrl,
  positiveInt,
} from './internal/options.js';
import { resolveRetry, runDeadline, sleep, withRetry } from './internal/retry.js';
import type { RetryPolicy } from './internal/retry.js';
import type { PollBackoff } from './internal/dwaveRun.js';

type Sdk = {
  braket: typeof import('@aws-sdk/client-braket');
  s3: typeof import('@aws-sdk/client-s3');
};
let sdkPromise: Promise<Sdk> | undefined;

/** The AWS SDK is loaded on first use: it is large, and dwave-only or dry-run users never need it. */
function loadSdk(): Promise<Sdk> {
  sdkPromise ??= Promise.all([import('@aws-sdk/client-braket'), import('@aws-sdk/client-s3')]).then(
    ([braket, s3]) => ({ braket, s3 }),
  );
  return sdkPromise;
}

export {
  DEFAULT_BRAKET_MAX_RESPONSE_BYTES,
  DEFAULT_BRAKET_MAX_RESULT_BYTES,
} from './internal/braketClients.js';

/** Amazon Braket's managed state-vector simulator. */
export const SV1_DEVICE_ARN = 'arn:aws:braket:::device/quantum-simulator/amazon/sv1';

/** Options of the `braket` sampler. */
export interface BraketSamplerOptions {
  /** Device ARN (default SV1). QPU ARNs embed their region, which then becomes the default region. */
  readonly deviceArn?: string;
  /** AWS region (default: the device's, else `AWS_REGION`, else `us-east-1`). */
  readonly region?: string;
  /** Result bucket (required unless `dryRun`); the SDK's convention is `amazon-braket-<region>-<account>`. */
  readonly outputS3Bucket?: string;
  /** Key prefix of the results (default `boltzmann-attention`). */
  readonly outputS3KeyPrefix?: string;
  /** Shots per problem (default 1000). */
  readonly shots?: number;
  /** DQA circuit options passed to dqa-sim's `toQasm3` (default: dqa-sim's defaults with `calibrate: 'linear-response'`). */
  readonly anneal?: Omit<QasmOptions, 'dialect' | 'measure' | 'beta'>;
  /** Braket API endpoint override (an http or https URL, e.g. a local test server; checked at creation). */
  readonly endpoint?: string;
  /** S3 endpoint override (http or https, checked at creation); path-style addressing is used when set. */
  readonly s3Endpoint?: string;
  /**
   * Largest Braket API answer (and S3 error answer) read, in bytes (default 4 MiB; they are a few KB).
   * Over it, the connection is closed and the call fails with ADAPTER_RESPONSE_TOO_LARGE. Applies to
   * the clients the sampler builds, not to a `braketClient` or `s3Client` passed in.
   */
  readonly maxResponseBytes?: number;
  /** Largest S3 object read, `results.json` included, in bytes (default 256 MiB); enforced while streaming. */
  readonly maxResultBytes?: number;
  /** Extra client configuration (credentials, …) for both SDK clients. */
  readonly clientConfig?: Omit<BraketClientConfig & S3ClientConfig, 'endpoint' | 'region'>;
  /** A ready-made Braket client (its own retry settings then apply too; it is not destroyed by `dispose`). */
  readonly braketClient?: BraketClient;
  /** A ready-made S3 client for reading results. */
  readonly s3Client?: S3Client;
  /** Deadline of one SDK call in ms (default 30 000). */
  readonly requestTimeoutMs?: number;
  /** Retry policy for retryable failures (task creation is idempotent through its clientToken). */
  readonly retry?: Partial<RetryPolicy>;
  /** Deadline of one `sample()` call in ms (default 30 minutes). */
  readonly deadlineMs?: number;
  /** Pause between GetQuantumTask polls (default 250 ms × 1.5^k, capped at 5 s). */
  readonly pollBackoff?: Partial<PollBackoff>;
  /** Tasks in flight at once (default 4). */
  readonly concurrency?: number;
  /** Largest spin count (= qubits) accepted (default 34, SV1's usual limit). */
  readonly maxSpins?: number;
  /** Seed of the retry jitter. */
  readonly seed?: number;
  /** Write the QASM programs and CreateQuantumTask inputs instead of sending them. */
  readonly dryRun?: DryRunOptions;
  /** Called after each successful run. */
  readonly onRun?: (info: BraketRunInfo) => void;
}

/** What one `sample()` call did. */
export interface BraketRunInfo {
  readonly deviceArn: string;
  /** Task ARNs, one per batch problem. */
  readonly taskArns: readonly string[];
  /** S3 keys of the results read. */
  readonly resultKeys: readonly string[];
  readonly shots: number;
}

/** A `braket` sampler: asynchronous `sample()`, plus the description of the latest run. */
export interface BraketSampler extends Sampler {
  sample(batch: IsingBatch): Promise<SampleResult>;
  lastRunInfo(): BraketRunInfo | undefined;
}

const capabilities = (maxSpins: number): SamplerCapabilities => ({
  exact: false,
  maxSpins,
  async: true,
  deterministic: false,
  dryRun: true,
});

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

  const send = async <T>(
    what: string,
    run: (signal: AbortSignal) => Promise<T>,
    runSignal: AbortSignal,
  ): Promise<T> =>
    withRetry(
      async () => {
        const timeout = AbortSignal.timeout(timeoutMs);
        try {
          return await run(AbortSignal.any([timeout, runSignal]));
        } catch (error) {
          if (runSignal.aborted && isAdapterError(runSignal.reason)) throw runSignal.reason;
          if (timeout.aborted)
            throw new AdapterError(
              'ADAPTER_TIMEOUT',
              `${what} got no answer within ${timeoutMs} ms`,
              { reason: 'timeout', retryable: true, cause: error },
            );
          throw classifyBraketError(error, what);
        }
      },
      policy,
      { signal: runSignal, rng },
    );

  async function runTask(
    sdk: Sdk,
    batch: IsingBatch,
    q: number,
    signal: AbortSignal,
    arns: string[],
    keys: string[],
    pending: Set<string>,
  ): Promise<SampleSet> {
    const { CreateQuantumTaskCommand, GetQuantumTaskCommand } = sdk.braket;
    const { GetObjectCommand } = sdk.s3;
    const input: CreateQuantumTaskCommandInput = {
      action: openQasmAction(await batchProblemToQasm(batch, q, options.anneal)),
      clientToken: randomUUID(),
      deviceArn,
      outputS3Bucket: bucket,
      outputS3KeyPrefix: prefix,
      shots,
    };
    const created = await send(
      'CreateQuantumTask',
      (s) => braket!.send(new CreateQuantumTaskCommand(input), { abortSignal: s }),
      signal,
    );
    const arn = created.quantumTaskArn;
    if (typeof arn !== 'string' || arn === '')
      throw malformed('CreateQuantumTask answered without a quantumTaskArn');
    arns[q] = arn;
    pending.add(arn);
    for (let k = 0; ; k++) {
      const task = await send(
        `GetQuantumTask ${arn}`,
        (s) => braket!.send(new GetQuantumTaskCommand({ quantumTaskArn: arn }), { abortSignal: s }),
        signal,
      );
      if (task.status === 'COMPLETED') {
        pending.delete(arn);
        if (typeof task.outputS3Directory !== 'string')
          throw malformed(`GetQuantumTask ${arn} is COMPLETED without outputS3Directory`);
        const key = `${task.outputS3Directory}/results.json`;
        keys[q] = key;
        const where = `s3://${task.outputS3Bucket ?? bucket}/${key}`;
        // The body is read inside send(), so the request deadline covers it too.
        const parsed = await send(
          `GetObject ${where}`,
          async (s) =>
            readResultsJson(
              await s3!.send(
                new GetObjectCommand({ Bucket: task.outputS3Bucket ?? bucket!, Key: key }),
                { abortSignal: s },
              ),
              maxResultBytes,
              where,
            ),
          signal,
        );
        return decodeBraketResults(parsed, batch.spins[q]!);
      }
      if (task.status === 'FAILED') {
        pending.delete(arn);
        throw new AdapterError(
          'ADAPTER_PROBLEM_FAILED',
          `quantum task ${arn} FAILED: ${echo(task.failureReason ?? 'no failureReason', 300)}`,
          { reason: 'rejected', retryable: false },
        );
      }
      if (task.status === 'CANCELLED' || task.status === 'CANCELLING') {
        pending.delete(arn);
        throw new AdapterError(
          'ADAPTER_PROBLEM_CANCELLED',
          `quantum task ${arn} was ${task.status}`,
          { reason: 'rejected', retryable: false },
        );
      }
      await sleep(Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** k), signal);
    }
  }

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
            sets[q] = await runTask(sdk, batch, q, signal, arns, keys, pending);
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
    capabilities: capabilities(maxSpins),
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
  capabilities: capabilities(34),
  // AWS credentials (or their provider), and the ready-made SDK clients, whose config holds them.
  secretOptions: ['clientConfig.credentials', 'braketClient', 's3Client'],
  create: (options) => createBraketSampler(options),
};
