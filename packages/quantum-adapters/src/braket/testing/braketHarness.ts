import { afterEach, beforeEach } from 'vitest';
import type { BraketSamplerOptions } from '../braketSamplerTypes.js';
import { startFakeBraket } from './fakeBraketServer.js';
import type { FakeBraket } from './fakeBraketServer.js';
import { fastTiming } from '../../shared/testing/rejection.js';

// The shared set-up of the Braket sampler tests (braketSampler*.test.ts): one fake Braket + S3 per
// test, the options that point a sampler at it, the anneal and the random problems they run. Not
// part of the public API (only the package's own tests import it).

/** The fake of the running test; a live binding, so importers see each test's own. */
export let fake: FakeBraket;

/** Starts a fake Braket + S3 before each test of the calling file and closes it after. */
export function useFakeBraket(): void {
  beforeEach(async () => {
    fake = await startFakeBraket();
  });
  afterEach(() => fake.close());
}

export const local = (extra: Partial<BraketSamplerOptions> = {}): BraketSamplerOptions => ({
  endpoint: fake.url,
  s3Endpoint: fake.url,
  region: 'us-east-1',
  clientConfig: { credentials: { accessKeyId: 'test', secretAccessKey: 'test' } },
  outputS3Bucket: 'amazon-braket-test',
  ...fastTiming(),
  ...extra,
});

export { anneal, problem } from '../../shared/testing/circuitProblems.js';
