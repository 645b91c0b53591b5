import { afterEach, beforeEach, expect } from 'vitest';
import type { IbmSamplerOptions } from '../ibmSamplerTypes.js';
import type { IbmTarget } from '../ibmTypes.js';
import type { RuntimeClientOptions } from '../runtimeTypes.js';
import { declaredRegister, drawHexShots, startFakeRuntime } from './fakeRuntimeServer.js';
import type { FakeRuntime } from './fakeRuntimeServer.js';
import type { AnswerPub } from './fakeRuntimeTypes.js';
import { simulateQasm } from '../../shared/testing/qasmInterpreter.js';
import { fastTiming } from '../../shared/testing/rejection.js';

/**
 * The shared set-up of the IBM Runtime client tests (ibm/*.test.ts): one fake IAM + Runtime per
 * test, the options that point a client at it, a small circuit, and the check that no credential
 * went where it should not. Not part of the public API (only the package's own tests import it).
 */

export const API_KEY = 'ibm-cloud-key-0123456789abcdef-SECRET';
export const CRN = 'crn:v1:bluemix:public:quantum-computing:us-east:a/acct0123:inst-4567::';

/** The fake of the running test; a live binding, so importers see each new one. */
export let fake: FakeRuntime;

/** Starts a fake before each test of the calling file and closes it after. */
export function useFakeRuntime(): void {
  beforeEach(async () => {
    fake = await startFakeRuntime({ apiKey: API_KEY, serviceCrn: CRN });
  });
  afterEach(() => fake.close());
}

/** Client options for the running fake, with short timings; `extra` overrides. */
export const clientOptions = (extra: Partial<RuntimeClientOptions> = {}): RuntimeClientOptions => ({
  apiKey: API_KEY,
  serviceCrn: CRN,
  endpoint: fake.runtimeUrl,
  iamEndpoint: fake.iamUrl,
  requestTimeoutMs: 2_000,
  retry: { baseDelayMs: 1, maxDelayMs: 5 },
  seed: 7,
  ...extra,
});

/** A measured circuit of `numBits` qubits (the fake only reads its `bit[n] c;`). */
export const qasm = (numBits: number): string =>
  `OPENQASM 3.0;\ninclude "stdgates.inc";\nbit[${numBits}] c;\n${Array.from(
    { length: numBits },
    (_, k) => `c[${k}] = measure $${k};`,
  ).join('\n')}\n`;

/**
 * The key went only to IAM, in the form body; IAM got no Authorization; Runtime got neither the
 * key nor anything but IAM-issued bearer tokens.
 */
export function expectNoLeaks(f: FakeRuntime = fake): void {
  for (const r of f.requests) {
    const headers = JSON.stringify(r.headers);
    expect(headers, `${r.method} ${r.path}`).not.toContain(API_KEY);
    if (r.path === '/identity/token') {
      expect(r.headers.authorization, 'IAM request').toBeUndefined();
    } else {
      expect(r.body, `${r.method} ${r.path}`).not.toContain(API_KEY);
      const auth = r.headers.authorization;
      if (auth !== undefined) expect(f.tokens).toContain(auth.replace(/^Bearer /, ''));
    }
  }
}

/** Sampler options for the running fake: its IAM and Runtime, the 7-qubit line, short timings. */
export const samplerOptions = (extra: Partial<IbmSamplerOptions> = {}): IbmSamplerOptions => ({
  apiKey: API_KEY,
  serviceCrn: CRN,
  endpoint: fake.runtimeUrl,
  iamEndpoint: fake.iamUrl,
  backend: 'fake_line7',
  maxSpins: 7,
  seed: 7,
  ...fastTiming(),
  ...extra,
});

/**
 * The fake device answers each pub with shots drawn from the circuit's own output distribution
 * (the test interpreter simulates the routed ISA circuit as the device would run it, noise-free).
 */
export const simulatedAnswer: AnswerPub = (pub, rng) => {
  const { probabilities } = simulateQasm(pub.qasm);
  return { ...declaredRegister(pub.qasm), samples: drawHexShots(probabilities, pub.shots, rng) };
};

/** Serves a recorded device (e.g. ibm_fez's 156-qubit map) from the running fake, as active. */
export function serveDevice(target: IbmTarget, f: FakeRuntime = fake): void {
  const name = target.configuration.backend_name;
  f.backends.set(name, {
    configuration: target.configuration,
    ...(target.properties === undefined ? {} : { properties: target.properties }),
    status: { backend_name: name, state: true, status: 'active', message: '', length_queue: 0 },
  });
}
