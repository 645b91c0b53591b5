import { optionKeys } from '@boltzmann/ising-core';
import type { BraketSamplerOptions } from '../braketSamplerTypes.js';
import type { DwaveSamplerOptions } from '../dwaveSamplerTypes.js';

/** Every key `createDwaveSampler` reads, with those `createSapiClient` reads (token, fetch, debug, …). */
export const DWAVE_OPTION_KEYS = optionKeys<DwaveSamplerOptions>({
  token: true,
  region: true,
  endpoint: true,
  maxResponseBytes: true,
  fetch: true,
  requestTimeoutMs: true,
  retry: true,
  debug: true,
  seed: true,
  solver: true,
  numReads: true,
  autoScale: true,
  params: true,
  embedding: true,
  chainStrength: true,
  deadlineMs: true,
  pollTimeoutSeconds: true,
  pollBackoff: true,
  label: true,
  maxSpins: true,
  solverDefinition: true,
  dryRun: true,
  onRun: true,
});

/** Every key `createBraketSampler` reads, the client injections (`braketClient`, `s3Client`) included. */
export const BRAKET_OPTION_KEYS = optionKeys<BraketSamplerOptions>({
  deviceArn: true,
  region: true,
  outputS3Bucket: true,
  outputS3KeyPrefix: true,
  shots: true,
  anneal: true,
  endpoint: true,
  s3Endpoint: true,
  maxResponseBytes: true,
  maxResultBytes: true,
  clientConfig: true,
  braketClient: true,
  s3Client: true,
  requestTimeoutMs: true,
  retry: true,
  deadlineMs: true,
  pollBackoff: true,
  concurrency: true,
  maxSpins: true,
  seed: true,
  dryRun: true,
  onRun: true,
});

/** The circuit options `anneal` may carry (read by dqa-sim's `toQasm3` and by the `'dqa'` dry-run fallback). */
export const BRAKET_ANNEAL_KEYS = optionKeys<NonNullable<BraketSamplerOptions['anneal']>>({
  tau: true,
  steps: true,
  order: true,
  schedule: true,
  calibrate: true,
  maxQubits: true,
});
