// The ibm sampler's options as data (SamplerPlugin.options): name, type, default and doc.
import { optionSpecs } from '@boltzmann/ising-core';
import type { IbmSamplerOptions } from './ibmSamplerTypes.js';

/** Every option `createIbmSampler` reads, with those `createRuntimeClient` reads, as data. */
export const IBM_OPTIONS = optionSpecs<IbmSamplerOptions>({
  apiKey: {
    type: 'string',
    default: 'IBM_CLOUD_API_KEY',
    doc: 'IBM Cloud API key; sent only to IAM for a bearer token, never written or logged.',
  },
  serviceCrn: {
    type: 'string',
    default: 'IBM_QUANTUM_CRN',
    doc: 'The Qiskit Runtime instance CRN (Service-CRN header); required for real runs.',
  },
  region: { type: "'us-east' | 'eu-de'", default: "'us-east'", doc: 'Runtime region.' },
  endpoint: {
    type: 'string',
    doc: "Runtime base URL override (http or https), e.g. a local test server; replaces the region's.",
  },
  iamEndpoint: {
    type: 'string',
    default: 'https://iam.cloud.ibm.com/identity/token',
    doc: 'IAM token URL; the API key goes only here.',
  },
  apiVersion: {
    type: 'string',
    default: "'2026-04-15'",
    doc: 'IBM-API-Version header (YYYY-MM-DD).',
  },
  backend: {
    type: 'string',
    default: "a real run: required; a dry run: the device's name, else 'ibm_fez'",
    doc: 'Backend name, e.g. ibm_fez, ibm_torino, ibm_brisbane.',
  },
  device: {
    type: '{ configuration, properties? }',
    default: 'read from Runtime (a dry run: the recorded ibm_fez or ibm_brisbane snapshot)',
    doc: "The backend's configuration (basis_gates, coupling_map) and properties, given directly.",
  },
  shots: {
    type: 'integer',
    default: '1000',
    doc: "Shots per problem, at most 100,000 (IBM backends' max_shots).",
  },
  anneal: {
    type: '{ tau, steps, order, schedule, calibrate, maxQubits }',
    default: "dqa-sim's defaults, calibrate 'linear-response'",
    doc: "The DQA circuit's options, passed to dqa-sim's annealCircuit.",
  },
  fractionalGates: {
    type: 'boolean',
    default: 'false',
    doc: 'Couplings as fractional rzz (angles in [0, π/2]) when the backend offers rzz.',
  },
  minFidelity: {
    type: 'number in [0, 1]',
    default: '0.25',
    doc: "Without anneal.steps, the most Trotter steps (≤ 64) whose circuit's expected fidelity (from the calibration) stays at or above this.",
  },
  strictFidelity: {
    type: 'boolean',
    default: 'false',
    doc: 'Refuse a real run whose circuits fall below minFidelity (ADAPTER_LOW_FIDELITY).',
  },
  sessionMode: {
    type: "'batch' | 'none'",
    default: "'batch'",
    doc: "A call's jobs run in one Runtime batch session, or as plain jobs.",
  },
  dynamicalDecoupling: {
    type: "{ enable, sequenceType: 'XX' | 'XpXm' | 'XY4', extraSlackDistribution, schedulingMethod, skipResetQubits }",
    default: "the service's (off)",
    doc: 'Sampler V2 dynamical decoupling, sent as params.options.dynamical_decoupling (snake_case).',
  },
  twirling: {
    type: '{ enableGates, enableMeasure, numRandomizations, shotsPerRandomization, strategy }',
    default: "the service's (off)",
    doc: "Sampler V2 Pauli twirling, sent as params.options.twirling (snake_case); randomizations: integer ≥ 1 or 'auto'.",
  },
  maxExecutionTimeSeconds: {
    type: 'integer in [1, 10800]',
    default: "none (the service's limit)",
    doc: "Most QPU seconds per job, sent as the job's top-level cost (max_execution_time); the service cancels a job over it.",
  },
  tags: {
    type: 'string[]',
    default: "['boltzmann-attention']",
    doc: "Job tags, added after 'boltzmann-attention'. IBM's REST API documents no job priority field, so none is offered.",
  },
  maxJobsPerMinute: {
    type: 'integer',
    default: '5',
    doc: "Most POST jobs in any 60 s (IBM's documented limit: 5 jobs per minute per user); later jobs wait.",
  },
  maxPubsPerJob: {
    type: 'integer',
    default: "the backend's max_experiments, else 300",
    doc: 'Most circuits (pubs) in one job.',
  },
  maxSpins: {
    type: 'integer',
    default: '16',
    doc: 'Largest spin count (= qubits on the routed path) accepted.',
  },
  requestTimeoutMs: {
    type: 'integer',
    default: '60000',
    doc: 'Deadline of one HTTP request in ms.',
  },
  retry: {
    type: '{ maxAttempts, baseDelayMs, maxDelayMs }',
    default: '4 attempts, 200 ms base, ≤ 10 s',
    doc: 'Retry policy for 429, 5xx and lost connections; Retry-After is honoured up to maxDelayMs.',
  },
  deadlineMs: {
    type: 'integer',
    default: '2 hours',
    doc: 'Deadline of one sample() call in ms (jobs queue on shared devices), at most 30 days.',
  },
  pollBackoff: {
    type: '{ initialMs, factor, maxMs }',
    default: '1 s × 1.5^k, at most 30 s',
    doc: 'Pause between job status polls.',
  },
  maxResponseBytes: {
    type: 'integer',
    default: '64 MiB',
    doc: 'Largest Runtime answer read; larger fails with ADAPTER_RESPONSE_TOO_LARGE.',
  },
  fetch: { type: 'typeof fetch', default: 'the global fetch', doc: 'The fetch implementation.' },
  seed: { type: 'number', doc: 'Seed of the retry jitter.' },
  dryRun: {
    type: '{ dir, … }',
    doc: 'Write the IAM, session and job requests (key redacted) and the routed circuits instead of sending them.',
  },
  onRun: { type: '(info) => void', doc: 'Called after each successful run.' },
  debug: {
    type: '(line: string) => void',
    doc: 'Receives one line per request, poll and retry (key and tokens redacted): progress while jobs queue.',
  },
});
