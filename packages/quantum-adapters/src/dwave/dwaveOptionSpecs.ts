import { optionKeys, optionSpecs } from '@boltzmann/ising-core';
import type { BraketSamplerOptions } from '../braketSamplerTypes.js';
import type { DwaveSamplerOptions } from '../dwaveSamplerTypes.js';

/** Every option `createDwaveSampler` reads, with those `createSapiClient` reads (token, fetch, debug, …), as data. */
export const DWAVE_OPTIONS = optionSpecs<DwaveSamplerOptions>({
  token: {
    type: 'string',
    default: 'DWAVE_API_TOKEN',
    doc: 'SAPI token; sent only as X-Auth-Token, never logged or put in messages.',
  },
  region: {
    type: 'string',
    default: "'na-west-1'",
    doc: 'Region code, giving https://<region>.cloud.dwavesys.com/sapi/v2/.',
  },
  endpoint: {
    type: 'string',
    doc: 'Full SAPI base URL (http or https); overrides region, e.g. a local test server.',
  },
  maxResponseBytes: {
    type: 'integer',
    default: '64 MiB',
    doc: 'Largest answer body read; larger is refused with ADAPTER_RESPONSE_TOO_LARGE.',
  },
  fetch: { type: 'typeof fetch', default: 'the global fetch', doc: 'The fetch implementation.' },
  requestTimeoutMs: {
    type: 'integer',
    default: '60000',
    doc: 'Deadline of one HTTP request in ms; long polls add their own wait.',
  },
  retry: {
    type: '{ attempts, baseMs, maxDelayMs }',
    default: '4 attempts, 200 ms base, ≤ 10 s',
    doc: 'Retry policy for retryable failures: exponential backoff with full jitter.',
  },
  debug: {
    type: '(line: string) => void',
    doc: 'Receives one redacted line per request and retry.',
  },
  seed: {
    type: 'number',
    default: '0',
    doc: 'Seed of the majority-vote tie coin and of the retry jitter.',
  },
  solver: {
    type: 'string | DwaveSolverFilter',
    default: 'the least-loaded online QPU accepting ising',
    doc: 'Solver name, or a filter.',
  },
  numReads: { type: 'integer', default: '100', doc: 'Reads per problem (num_reads).' },
  autoScale: { type: 'boolean', default: 'true', doc: 'SAPI auto_scale.' },
  params: {
    type: 'Record<string, unknown>',
    doc: "Extra SAPI parameters (annealing_time, x_…); they override the adapter's.",
  },
  embedding: {
    type: 'Embedding',
    default: "a clique layout for the solver's topology",
    doc: 'Chains per logical variable for the largest problem.',
  },
  chainStrength: {
    type: 'number | (problem) => number',
    default: 'uniform torque compensation (prefactor 1.414)',
    doc: 'Fixed chain strength, or a rule per problem.',
  },
  deadlineMs: {
    type: 'integer',
    default: '15 minutes',
    doc: 'Deadline of one sample() call, submission to last answer, in ms; at most 30 days.',
  },
  pollTimeoutSeconds: {
    type: 'integer',
    default: '30',
    doc: 'Long-poll wait per status request, 1–30 s.',
  },
  pollBackoff: {
    type: '{ initialMs, factor, maxMs }',
    default: '50 ms × 1.3^k, at most 5 s',
    doc: 'Pause between status polls.',
  },
  label: {
    type: 'string',
    default: "'boltzmann-attention'",
    doc: 'Problem label shown in the Leap dashboard.',
  },
  maxSpins: {
    type: 'integer',
    default: '64',
    doc: 'Largest spin count accepted (the K64 clique of a Chimera C16).',
  },
  solverDefinition: {
    type: 'SapiSolver',
    doc: 'Solver definition to use without listing; dry runs use a Pegasus P16 stand-in when absent.',
  },
  dryRun: {
    type: '{ dir, … }',
    doc: 'Write the requests (token redacted) and BQM files instead of sending them.',
  },
  onRun: {
    type: '(info) => void',
    doc: 'Called after every successful run with what lastRunInfo() returns.',
  },
});

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

/**
 * The circuit options the gate-model plugins' `anneal` may carry (braket, ibm): read by dqa-sim's
 * circuit export and by the `'dqa'` dry-run fallback.
 */
export const ANNEAL_CIRCUIT_KEYS = optionKeys<NonNullable<BraketSamplerOptions['anneal']>>({
  tau: true,
  steps: true,
  order: true,
  schedule: true,
  calibrate: true,
  maxQubits: true,
});
