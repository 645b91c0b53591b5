import { createIsingBatch, estimateBatch } from '@boltzmann/ising-core';
import { bruteForceEstimate } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { createBraketSampler, createDwaveSampler } from './index.js';

// Real-hardware checks, off by default: they need QA_INTEGRATION=1 plus credentials, use the
// network and cost money. Each sends one small problem.
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
