import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsingBatch } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { rejection } from '../shared/testing/rejection.js';
import { braketCostEstimate, braketShotRate } from './braketCost.js';
import { createBraketSampler, SV1_DEVICE_ARN } from '../index.js';

const GARNET = 'arn:aws:braket:eu-north-1::device/qpu/iqm/Garnet';
const FORTE = 'arn:aws:braket:us-east-1::device/qpu/ionq/Forte-1';
const ARIA = 'arn:aws:braket:us-east-1::device/qpu/ionq/Aria-1';
const ANKAA = 'arn:aws:braket:us-west-1::device/qpu/rigetti/Ankaa-3';

describe('braket cost', () => {
  it("should price a task as the pricing page's task fee plus shots × the family's shot price", () => {
    // $0.30 a task on every QPU; per shot: Garnet $0.00145, Forte $0.08, Aria $0.03, Ankaa $0.0009.
    const cases: [string, number, number][] = [
      [GARNET, 1000, 0.3 + 1.45],
      [FORTE, 100, 0.3 + 8],
      [ARIA, 2500, 0.3 + 75],
      [ANKAA, 1000, 0.3 + 0.9],
    ];
    for (const [deviceArn, shots, usd] of cases) {
      const e = braketCostEstimate({ deviceArn, shots }, 4);
      expect(e.perProblem.usd).toBeCloseTo(usd, 12);
      expect(e.call).toEqual({ problems: 4, jobs: 4, usd: expect.any(Number) });
      expect(e.call.usd).toBeCloseTo(4 * usd, 12);
      expect(e).toMatchObject({ provider: 'braket', perJob: {}, problemsPerJob: 1, limits: [] });
      expect(e.assumptions[0]).toContain('read 2026-12-06');
    }
  });

  it('should give no price for a simulator billed by the minute, nor for a device without a documented rate', () => {
    const sv1 = braketCostEstimate({ deviceArn: SV1_DEVICE_ARN, shots: 1000 }, 2);
    expect(sv1.perProblem).toEqual({});
    expect(sv1.call).toEqual({ problems: 2, jobs: 2 });
    expect(sv1.assumptions[0]).toContain('billed by the minute');
    for (const arn of [
      'arn:aws:braket:us-east-1::device/qpu/ionq/Forte-Enterprise-1',
      'arn:aws:braket:us-west-1::device/qpu/rigetti/Cepheus-1-108Q',
      'arn:aws:braket:eu-north-1::device/qpu/iqm/Emerald',
    ]) {
      expect(braketShotRate(arn)).toBeUndefined();
      const e = braketCostEstimate({ deviceArn: arn, shots: 10 }, 1);
      expect(e.perProblem.usd).toBeUndefined();
      expect(e.assumptions[0]).toContain(`the rate of ${arn} is unknown`);
    }
  });

  it("should write estimate.json in a dry run's call directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'braket-cost-'));
    const batch = createIsingBatch({
      fields: Float64Array.of(0.1, -0.2, 0.3, 0.4),
      couplings: Float64Array.of(0, 0.5, 0, 0),
      spins: [2, 2],
      stride: 2,
    });
    const sampler = createBraketSampler({ dryRun: { dir }, deviceArn: GARNET, shots: 200 });
    expect((await rejection(sampler.sample(batch))).code).toBe('ADAPTER_DRY_RUN');
    const written = JSON.parse(readFileSync(join(dir, 'braket-0001', 'estimate.json'), 'utf8'));
    expect(written.perProblem.usd).toBeCloseTo(0.3 + 200 * 0.00145, 12);
    expect(written.call.usd).toBeCloseTo(2 * (0.3 + 200 * 0.00145), 12);
    expect(written).toEqual(
      JSON.parse(JSON.stringify(braketCostEstimate({ deviceArn: GARNET, shots: 200 }, 2))),
    );
  });
});
