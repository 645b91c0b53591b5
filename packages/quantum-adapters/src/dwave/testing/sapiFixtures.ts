import { causalBatch } from '@boltzmann/ising-core';
import { fakeChimeraSolver } from './fakeSolvers.js';

// The token, solver, batch and retry policy of the SAPI client tests (sapiClient.test.ts,
// sapiRedirects.test.ts). Not part of the public API (only the package's own tests import it).

export const TOKEN = 'DEV-redirect-test-0123456789-secret';
export const solver = fakeChimeraSolver({ rows: 1, columns: 1, shore: 4 });
export const batch = () =>
  causalBatch(new Float64Array(8).fill(0.2), new Float64Array(4).fill(0.1), {
    batch: 2,
    length: 2,
  });
export const noRetry = { maxAttempts: 1 };
