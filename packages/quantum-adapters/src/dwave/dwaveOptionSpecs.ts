import { optionSpecs } from '@boltzmann/ising-core';
import type { DwaveSamplerOptions } from './dwaveSamplerTypes.js';

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
