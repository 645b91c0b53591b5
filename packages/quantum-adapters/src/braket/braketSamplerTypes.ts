// Public types of the braket sampler: its options, what one run did, and the sampler itself.
import type { BraketClient, BraketClientConfig } from '@aws-sdk/client-braket';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { QasmOptions } from '@boltzmann/dqa-sim';
import type { IsingBatch, SampleResult, Sampler } from '@boltzmann/ising-core';
import type { DryRunOptions } from '../shared/dryRun.js';
import type { PollBackoff } from '../shared/retry.js';
import type { RetryPolicy } from '../shared/retry.js';

/**
 * Options of the `braket` sampler.
 *
 * @category Amazon Braket
 */
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

/**
 * What one `sample()` call did.
 *
 * @category Amazon Braket
 */
export interface BraketRunInfo {
  readonly deviceArn: string;
  /** Task ARNs, one per batch problem. */
  readonly taskArns: readonly string[];
  /** S3 keys of the results read. */
  readonly resultKeys: readonly string[];
  readonly shots: number;
}

/**
 * A `braket` sampler: asynchronous `sample()`, plus the description of the latest run.
 *
 * @category Amazon Braket
 */
export interface BraketSampler extends Sampler {
  sample(batch: IsingBatch): Promise<SampleResult>;
  lastRunInfo(): BraketRunInfo | undefined;
}
