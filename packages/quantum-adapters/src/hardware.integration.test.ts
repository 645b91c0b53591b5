import { createIsingBatch, estimateBatch } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { annealDistribution } from '@boltzmann/dqa-sim';
import { createBraketSampler, createDwaveSampler, createIbmSampler } from './index.js';
import { batchProblem } from './shared/batchProblem.js';

// Real-hardware checks, off by default: they need QA_INTEGRATION=1 plus credentials, use the
// network and cost money. Each sends one small problem. They have not run in this project's CI
// (no network, no credentials); the IBM one has never run at all (no IBM account here).
const integration = process.env.QA_INTEGRATION === '1';
const twoSpin = () =>
  createIsingBatch({
    fields: Float64Array.of(0.3, -0.1),
    couplings: Float64Array.of(0, 0.8, 0, 0),
    spins: [2],
    stride: 2,
  });

describe.skipIf(!integration || !process.env.DWAVE_API_TOKEN)(
  'D-Wave Leap (QA_INTEGRATION=1, DWAVE_API_TOKEN)',
  () => {
    it('should sample a two-spin problem on the least-loaded QPU', async () => {
      const sampler = createDwaveSampler({ numReads: 1000 });
      const est = await estimateBatch(sampler, twoSpin());
      const info = sampler.lastRunInfo()!;
      console.log(
        `[dwave] ${info.solver}: m = ${[...est.magnetization]}, exact ${[...bruteForceEstimate(twoSpin()).magnetization]}, chain breaks ${info.chainBreakFraction}, QPU ${info.qpuAccessTimeUs} µs`,
      );
      expect(est.magnetization.every((m) => Math.abs(m) <= 1)).toBe(true);
    });
  },
);

describe.skipIf(!integration || !process.env.BRAKET_OUTPUT_BUCKET)(
  'Amazon Braket SV1 (QA_INTEGRATION=1, BRAKET_OUTPUT_BUCKET, AWS credentials)',
  () => {
    it('should run the DQA circuit of a two-spin problem on SV1', async () => {
      const sampler = createBraketSampler({
        outputS3Bucket: process.env.BRAKET_OUTPUT_BUCKET!,
        shots: 1000,
      });
      const est = await estimateBatch(sampler, twoSpin());
      console.log(`[braket] ${sampler.lastRunInfo()!.taskArns[0]}: m = ${[...est.magnetization]}`);
      expect(est.magnetization.every((m) => Math.abs(m) <= 1)).toBe(true);
    }, 600_000);
  },
);

describe.skipIf(!integration || !process.env.IBM_CLOUD_API_KEY || !process.env.IBM_QUANTUM_CRN)(
  'IBM Quantum (QA_INTEGRATION=1, IBM_CLOUD_API_KEY, IBM_QUANTUM_CRN, IBM_BACKEND)',
  () => {
    it('should run the routed DQA circuit of a two-spin problem on a device', async () => {
      // A short anneal: 4 Trotter steps keep the routed circuit to a few dozen two-qubit gates.
      const anneal = { steps: 4, calibrate: false as const };
      const sampler = createIbmSampler({
        backend: process.env.IBM_BACKEND ?? 'ibm_fez',
        shots: 1000,
        anneal,
      });
      const est = await estimateBatch(sampler, twoSpin());
      const info = sampler.lastRunInfo()!;
      const ideal = annealDistribution(batchProblem(twoSpin(), 0), { ...anneal, beta: 1 });
      console.log(
        `[ibm] ${info.backend} jobs ${info.jobIds.join(', ')} on qubits ${info.layouts[2]}: m = ${[...est.magnetization]}; noise-free circuit P(s) = ${[...ideal].map((p) => p.toFixed(3))}`,
      );
      expect(est.magnetization.every((m) => Math.abs(m) <= 1)).toBe(true);
    }, 3_600_000);
  },
);
