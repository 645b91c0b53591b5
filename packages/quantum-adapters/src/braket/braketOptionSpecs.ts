import { optionSpecs } from '@boltzmann/ising-core';
import type { BraketSamplerOptions } from './braketSamplerTypes.js';

/** Every option `createBraketSampler` reads, the client injections (`braketClient`, `s3Client`) included, as data. */
export const BRAKET_OPTIONS = optionSpecs<BraketSamplerOptions>({
  deviceArn: {
    type: 'string',
    default: 'SV1',
    doc: "Device ARN; a QPU ARN's region becomes the default region.",
  },
  region: {
    type: 'string',
    default: "the device's, else AWS_REGION, else us-east-1",
    doc: 'AWS region.',
  },
  outputS3Bucket: { type: 'string', doc: 'Result bucket, required unless dryRun.' },
  outputS3KeyPrefix: {
    type: 'string',
    default: "'boltzmann-attention'",
    doc: 'Key prefix of the results.',
  },
  shots: { type: 'integer', default: '1000', doc: 'Shots per problem.' },
  anneal: {
    type: '{ tau, steps, order, schedule, calibrate, maxQubits }',
    default: "dqa-sim's defaults, calibrate 'linear-response'",
    doc: "The DQA circuit's options, passed to dqa-sim's toQasm3.",
  },
  endpoint: {
    type: 'string',
    doc: 'Braket API endpoint override (http or https), e.g. a local test server.',
  },
  s3Endpoint: {
    type: 'string',
    doc: 'S3 endpoint override (http or https); path-style addressing when set.',
  },
  maxResponseBytes: {
    type: 'integer',
    default: '4 MiB',
    doc: 'Largest Braket API (and S3 error) answer read; larger fails with ADAPTER_RESPONSE_TOO_LARGE.',
  },
  maxResultBytes: {
    type: 'integer',
    default: '256 MiB',
    doc: 'Largest S3 object read, results.json included; enforced while streaming.',
  },
  clientConfig: {
    type: 'BraketClientConfig & S3ClientConfig',
    doc: 'Extra configuration (credentials, …) for both SDK clients.',
  },
  braketClient: {
    type: 'BraketClient',
    doc: 'A ready-made Braket client (not destroyed by dispose).',
  },
  s3Client: { type: 'S3Client', doc: 'A ready-made S3 client for reading results.' },
  requestTimeoutMs: { type: 'integer', default: '30000', doc: 'Deadline of one SDK call in ms.' },
  retry: {
    type: '{ attempts, baseMs, maxDelayMs }',
    default: '4 attempts, 200 ms base, ≤ 10 s',
    doc: 'Retry policy for retryable failures; task creation is idempotent through its clientToken.',
  },
  deadlineMs: {
    type: 'integer',
    default: '30 minutes',
    doc: 'Deadline of one sample() call in ms; at most 30 days.',
  },
  pollBackoff: {
    type: '{ initialMs, factor, maxMs }',
    default: '250 ms × 1.5^k, at most 5 s',
    doc: 'Pause between GetQuantumTask polls.',
  },
  concurrency: { type: 'integer', default: '4', doc: 'Tasks in flight at once.' },
  maxSpins: {
    type: 'integer',
    default: '34',
    doc: "Largest spin count (= qubits) accepted, SV1's usual limit.",
  },
  seed: { type: 'number', doc: 'Seed of the retry jitter.' },
  dryRun: {
    type: '{ dir, … }',
    doc: 'Write the QASM programs and CreateQuantumTask inputs instead of sending them.',
  },
  onRun: { type: '(info) => void', doc: 'Called after each successful run.' },
});
