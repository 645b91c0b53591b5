import { causalBatch, createRng } from '@boltzmann/ising-core';
import { afterEach, beforeEach } from 'vitest';
import type { DwaveSamplerOptions } from '../dwaveSamplerTypes.js';
import { startFakeSapi } from './fakeSapiServer.js';
import type { FakeSapi } from './fakeSapiServer.js';
import { fakeChimeraSolver } from './fakeSolvers.js';
import { fastTiming } from '../../shared/testing/rejection.js';

/**
 * The shared set-up of the D-Wave sampler tests (dwaveSampler*.test.ts, dwaveEmbeddingsAndDryRuns):
 * one fake SAPI per test, the options that point a sampler at it, and the random causal problems
 * they sample. Not part of the public API (only the package's own tests import it).
 */

export const TOKEN = 'DEV-0123456789abcdef-secret';
/** The parts of a submitted SAPI job these tests read. */
export type SubmittedJob = { data: { format: string; lin: string }; params: unknown };
/** The fake SAPI of the running test; a live binding, so importers see each `setFake`. */
export let fake: FakeSapi;
export const wide = {
  hRange: [-50, 50] as [number, number],
  jRange: [-50, 50] as [number, number],
};

/**
 * Replaces the fake the tests and `fast` talk to (a test that restarts it with other solvers).
 *
 * @param next the new fake; the old one is the caller's to close.
 */
export function setFake(next: FakeSapi): void {
  fake = next;
}

/** Starts a 2×2 Chimera fake before each test of the calling file and closes it after. */
export function useFakeSapi(): void {
  beforeEach(async () => {
    fake = await startFakeSapi({
      token: TOKEN,
      solvers: [fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 }, wide)],
    });
  });
  afterEach(() => fake.close());
}

export const fast = (extra: Partial<DwaveSamplerOptions> = {}): DwaveSamplerOptions => ({
  token: TOKEN,
  endpoint: fake.url,
  pollTimeoutSeconds: 1,
  ...fastTiming(),
  ...extra,
});

export function randomCausal(seed: number, length: number, beta = 1) {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: 2 * length * length }, () => 0.8 * rng.normal());
  const couplings = Float64Array.from({ length: length * length }, () => 0.5 * rng.normal());
  return causalBatch(fields, couplings, { batch: 2, length }, beta);
}
