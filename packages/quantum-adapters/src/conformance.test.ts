import { describeSamplerConformance } from '@boltzmann/ising-core/testing/vitest';
import { afterEach, beforeEach } from 'vitest';
import { startFakeBraket } from './braket/testing/fakeBraketServer.js';
import type { FakeBraket } from './braket/testing/fakeBraketServer.js';
import { startFakeSapi } from './dwave/testing/fakeSapiServer.js';
import type { FakeSapi } from './dwave/testing/fakeSapiServer.js';
import { startFakeRuntime } from './ibm/testing/fakeRuntimeServer.js';
import type { FakeRuntime } from './ibm/testing/fakeRuntimeServer.js';
import { fakeChimeraSolver } from './dwave/testing/fakeSolvers.js';
import { API_KEY, CRN, simulatedAnswer } from './ibm/testing/runtimeHarness.js';
import { braketSampler, dwaveSampler, ibmSampler } from './index.js';
import type { BraketSamplerOptions, DwaveSamplerOptions, IbmSamplerOptions } from './index.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// Fresh local servers for every check; the suite reads createOptions when a check runs.
let sapi: FakeSapi;
let braket: FakeBraket;
let runtime: FakeRuntime;
beforeEach(async () => {
  sapi = await startFakeSapi({
    token: 'conformance-token',
    solvers: [
      fakeChimeraSolver(
        { rows: 2, columns: 2, shore: 4 },
        { hRange: [-50, 50], jRange: [-50, 50] },
      ),
    ],
  });
  braket = await startFakeBraket();
  runtime = await startFakeRuntime({ apiKey: API_KEY, serviceCrn: CRN });
  runtime.answerPub = simulatedAnswer;
});
afterEach(async () => {
  await sapi.close();
  await braket.close();
  await runtime.close();
});

const quick = {
  pollBackoff: { initialMs: 5, maxMs: 20 },
  retry: { baseDelayMs: 5, maxDelayMs: 20 },
  requestTimeoutMs: 5_000,
  deadlineMs: 30_000,
};

// The fake QPU samples exp(−E) of the submitted physical problem exactly (β_eff = 1 with autoScale off),
// so after unembedding the samples are Boltzmann up to chain breaks (negligible at chain strength 6) and
// sampling noise (10^4 reads: σ(m) ≤ 0.01), which the default tolerances (0.05 / 0.15) cover.
describeSamplerConformance(dwaveSampler, {
  get createOptions(): DwaveSamplerOptions {
    return {
      ...quick,
      token: 'conformance-token',
      endpoint: sapi.url,
      pollTimeoutSeconds: 1,
      numReads: 10_000,
      autoScale: false,
      chainStrength: 6,
      seed: 3,
    };
  },
});

// The Braket plugin runs dqa-sim's DQA circuit, which is Boltzmann only to first order in the
// fields: the exact-reference checks belong to dqa-sim's fidelity tests, and braketSampler.test.ts
// checks the samples against dqa-sim's exact output distribution. Single-spin (h = ±4) still runs.
describeSamplerConformance(braketSampler, {
  get createOptions(): BraketSamplerOptions {
    return {
      ...quick,
      endpoint: braket.url,
      s3Endpoint: braket.url,
      region: 'us-east-1',
      clientConfig: { credentials: { accessKeyId: 'test', secretAccessKey: 'test' } },
      outputS3Bucket: 'amazon-braket-conformance',
      shots: 1000,
      concurrency: 8,
    };
  },
  exactReference: false,
  tolerance: { magnetization: 0.05 },
});

// The ibm plugin runs the same DQA circuit, routed onto the fake's 7-qubit line in its native gates;
// the fake answers with shots drawn from that routed circuit's simulated distribution. Like Braket,
// DQA is not an exact Boltzmann sampler, so the exact-reference checks are off.
describeSamplerConformance(ibmSampler, {
  get createOptions(): IbmSamplerOptions {
    return {
      ...quick,
      apiKey: API_KEY,
      serviceCrn: CRN,
      endpoint: runtime.runtimeUrl,
      iamEndpoint: runtime.iamUrl,
      backend: 'fake_line7',
      maxSpins: 7,
      shots: 1000,
    };
  },
  exactReference: false,
  tolerance: { magnetization: 0.05 },
});
