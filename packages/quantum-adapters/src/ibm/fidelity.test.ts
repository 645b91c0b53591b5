// The expected-fidelity model (circuitFidelity.ts) against an independent reckoning from the
// recorded calibration's own text, the Trotter steps it chooses against a brute-force search, and
// what the sampler does with them: the dry run's fidelity.json, the run info, and a strict refusal.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problem } from '../shared/testing/circuitProblems.js';
import { rejection } from '../shared/testing/rejection.js';
import { IBM_BRISBANE_CALIBRATION, IBM_FEZ_CALIBRATION } from './calibrationSnapshots.generated.js';
import type { CompactCalibration } from './calibrationTypes.js';
import { circuitFidelity } from './circuitFidelity.js';
import { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT } from './knownDevices.js';
import { createIbmSampler } from './ibmSampler.js';
import { fake, samplerOptions, serveDevice, useFakeRuntime } from './testing/runtimeHarness.js';
import { transpileAnneal } from './transpile.js';
import { chooseSteps, DEFAULT_STEP_TIME } from './trotterSteps.js';
import type { IbmTarget } from './ibmTypes.js';

useFakeRuntime();

/** A dense n-spin problem. */
const dense = (n: number) => {
  const couplings = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let k = j + 1; k < n; k++) couplings[j * n + k] = 0.3;
  return { fields: new Array<number>(n).fill(0.2), couplings };
};
const route = (target: IbmTarget, n: number) => (steps: number, tau: number) =>
  transpileAnneal(dense(n), { steps, tau, calibrate: 'linear-response' }, target);

/** Π (1 − ε) by hand: every `$k` statement's error read straight from the snapshot's text. */
function referenceFidelity(qasm: string, c: CompactCalibration): number {
  const error = new Map<string, number>();
  for (const token of c.gates.join(' ').split(' ')) {
    const [gate, on, e] = token.split(':');
    error.set(`${gate} ${on}`, Number(e));
    error.set(`${gate} ${on!.split('-').reverse().join('-')}`, Number(e));
  }
  let f = 1;
  for (const line of qasm.split('\n')) {
    const measured = line.match(/= measure \$(\d+);$/);
    if (measured) {
      f *= 1 - c.readoutError[Number(measured[1])]!;
      continue;
    }
    const gate = line.match(/^([a-z]+)(?:\([^)]*\))? (\$\d+(?:, \$\d+)?);$/);
    if (!gate || gate[1] === 'rz') continue;
    const on = gate[2]!.replaceAll('$', '').replace(', ', '-');
    const e = error.get(`${gate[1]} ${on}`);
    if (e === undefined) throw new Error(`no calibration for ${gate[1]} ${on}`);
    f *= 1 - e;
  }
  return f;
}

describe('circuitFidelity', () => {
  it.each([
    ['ibm_fez', IBM_FEZ_SNAPSHOT, IBM_FEZ_CALIBRATION],
    ['ibm_brisbane', IBM_BRISBANE_SNAPSHOT, IBM_BRISBANE_CALIBRATION],
  ] as const)(
    '%s: equals the product of the calibrated errors reckoned by hand, and falls with the steps',
    (_, target, calibration) => {
      let previous = 1;
      for (const steps of [1, 2, 4, 8]) {
        const circuit = route(target, 5)(steps, steps * DEFAULT_STEP_TIME);
        const got = circuitFidelity(circuit, target.properties!);
        expect(got.fidelity).toBeCloseTo(referenceFidelity(circuit.qasm, calibration), 12);
        expect(got.twoQubitGates).toBe(circuit.stats.twoQubitGates);
        expect(got.measurements).toBe(5);
        expect(got.fidelity).toBeLessThan(previous);
        previous = got.fidelity;
      }
    },
  );

  it("reproduces issue 42's figures on ibm_fez: 8 dense spins ≈ 4e-8 at 64 steps, 0.26–0.44 at 2–4 steps", () => {
    const at = (steps: number) =>
      circuitFidelity(
        route(IBM_FEZ_SNAPSHOT, 8)(steps, steps * DEFAULT_STEP_TIME),
        IBM_FEZ_SNAPSHOT.properties!,
      ).fidelity;
    expect(at(64)).toBeLessThan(1e-7);
    expect(at(4)).toBeGreaterThan(0.2);
    expect(at(2)).toBeLessThan(0.5);
  });
});

describe('layout with fractional gates', () => {
  it("avoids ibm_fez's couplers whose rzz is uncalibrated (error 1 in the recorded calibration)", () => {
    const basis = [...IBM_FEZ_SNAPSHOT.configuration.basis_gates, 'rzz'];
    const target: IbmTarget = {
      ...IBM_FEZ_SNAPSHOT,
      configuration: { ...IBM_FEZ_SNAPSHOT.configuration, basis_gates: basis },
      fractionalGates: true,
    };
    const circuit = route(target, 4)(4, 1);
    expect(circuit.stats.gateCounts.rzz).toBeGreaterThan(0);
    const rzzError = (a: number, b: number) =>
      IBM_FEZ_SNAPSHOT.properties!.gates!.find(
        (g) => g.gate === 'rzz' && g.qubits.join() === `${a},${b}`,
      )?.parameters.find((p) => p.name === 'gate_error')?.value;
    const path = circuit.physicalQubits;
    for (let k = 0; k + 1 < path.length; k++)
      expect(rzzError(path[k]!, path[k + 1]!)).toBeLessThan(1);
    expect(circuitFidelity(circuit, target.properties!).fidelity).toBeGreaterThan(0.5);
  });
});

describe('chooseSteps', () => {
  it('picks the largest K ≤ 64 whose circuit meets the threshold, as a search over every K does', () => {
    const target = IBM_FEZ_SNAPSHOT;
    const fidelityOf = (c: ReturnType<ReturnType<typeof route>>) =>
      circuitFidelity(c, target.properties!).fidelity;
    const all = Array.from({ length: 64 }, (_, k) =>
      fidelityOf(route(target, 4)(k + 1, (k + 1) * DEFAULT_STEP_TIME)),
    );
    for (const threshold of [0.05, 0.2, 0.25, 0.5, 0.8, 0.95]) {
      const brute = all.reduce((best, f, k) => (f >= threshold ? k + 1 : best), 0);
      const got = chooseSteps(4, undefined, threshold, route(target, 4), fidelityOf);
      expect(got.steps, `threshold ${threshold}`).toBe(Math.max(brute, 1));
      expect(got.tau).toBe(got.steps * DEFAULT_STEP_TIME);
      expect(got.belowThreshold).toBe(brute === 0);
      expect(got.source).toBe('fidelity');
    }
    // Given steps are kept (and judged); no calibration keeps dqa-sim's defaults.
    const given = chooseSteps(4, { steps: 8, tau: 3 }, 0.99, route(target, 4), fidelityOf);
    expect(given).toMatchObject({ steps: 8, tau: 3, source: 'options', belowThreshold: true });
    const blind = chooseSteps(4, undefined, 0.5, route(target, 4), () => undefined);
    expect(blind).toMatchObject({ steps: 64, tau: 16, source: 'default', belowThreshold: false });
  });
});

describe('the sampler', () => {
  it('writes the choice of every size to fidelity.json in a dry run, and each circuit its fidelity', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibm-fidelity-'));
    const sampler = createIbmSampler({ dryRun: { dir }, minFidelity: 0.3 });
    await rejection(sampler.sample(problem(1, 6)));
    const report = JSON.parse(readFileSync(join(dir, 'ibm-0001', 'fidelity.json'), 'utf8'));
    expect(report).toMatchObject({ backend: 'ibm_fez', minFidelity: 0.3 });
    const [six] = report.bySpins;
    expect(six).toMatchObject({ spins: 6, source: 'fidelity', belowThreshold: false });
    expect(six.fidelity).toBeGreaterThanOrEqual(0.3);
    const [circuit] = JSON.parse(readFileSync(join(dir, 'ibm-0001', 'circuits.json'), 'utf8'));
    expect(circuit.fidelity).toBeCloseTo(six.fidelity, 12);
  });

  it('with strictFidelity, refuses a real run below the threshold before it submits a job', async () => {
    serveDevice(IBM_FEZ_SNAPSHOT);
    const sampler = createIbmSampler(
      samplerOptions({
        backend: 'ibm_fez',
        anneal: { steps: 8, tau: 2 },
        minFidelity: 0.9,
        strictFidelity: true,
      }),
    );
    const e = await rejection(sampler.sample(problem(2, 6)));
    expect(e).toMatchObject({ code: 'ADAPTER_LOW_FIDELITY' });
    expect(e).toMatchObject({
      message: expect.stringMatching(
        /6-spin circuits at 8 Trotter step\(s\) have an expected fidelity of 0\.\d+ on ibm_fez, below minFidelity 0\.9/,
      ),
    });
    expect(fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/jobs'))).toBe(false);
  });

  it.each([[-0.1], [1.5], ['0.3']])('refuses minFidelity %j', (bad) => {
    expect(() =>
      createIbmSampler({ dryRun: { dir: tmpdir() }, minFidelity: bad as number }),
    ).toThrow(expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }));
  });
});
