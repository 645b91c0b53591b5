import { annealDistribution } from '@boltzmann/dqa-sim';
import { describe, expect, it } from 'vitest';
import { batchProblem } from '../shared/batchProblem.js';
import { anneal, empirical, problem } from '../shared/testing/circuitProblems.js';
import { rejection } from '../shared/testing/rejection.js';
import { createIbmSampler } from './ibmSampler.js';
import type { IbmTarget } from './ibmTypes.js';
import { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT } from './knownDevices.js';
import { GATE_DEFINITIONS } from './qasmGates.js';
import { createRuntimeClient } from './runtimeClient.js';
import { circuitRefusal } from './testing/fakeRuntimeCircuit.js';
import {
  clientOptions,
  expectNoLeaks,
  fake,
  samplerOptions,
  serveDevice,
  simulatedAnswer,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { transpileAnneal } from './transpile.js';

useFakeRuntime();

const posts = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/jobs');
const withRzz = (t: IbmTarget): IbmTarget => ({
  configuration: { ...t.configuration, basis_gates: [...t.configuration.basis_gates, 'rzz'] },
  fractionalGates: true,
});
const measured = 'bit[2] c;\nc[0] = measure $0;\nc[1] = measure $1;\n';

describe('the fake Runtime server checks circuits as the service may', () => {
  it('accepts every form of circuit the adapter emits', () => {
    const p = { fields: [0.2, -0.4, 0.3], couplings: [0, 0.5, -0.2, 0, 0, 0.7, 0, 0, 0] };
    for (const target of [IBM_FEZ_SNAPSHOT, IBM_BRISBANE_SNAPSHOT].flatMap((t) => [t, withRzz(t)]))
      expect(circuitRefusal(transpileAnneal(p, { tau: 2, steps: 2 }, target).qasm)).toBeUndefined();
  });

  it('refuses a circuit without stdgates.inc, and a gate neither in it nor defined before use', () => {
    expect(circuitRefusal(`OPENQASM 3.0;\n${measured}`)).toMatch(/lacks include "stdgates\.inc"/);
    const head = 'OPENQASM 3.0;\ninclude "stdgates.inc";\n';
    expect(circuitRefusal(`${head}${measured}sx $0;\ncz $0, $1;\n`)).toBeUndefined();
    expect(circuitRefusal(`${head}${measured}ecr $0, $1;\n`)).toMatch(/gate ecr is not defined/);
    expect(circuitRefusal(`${head}${GATE_DEFINITIONS.ecr}\n${measured}ecr $0, $1;\n`)).toBe(
      undefined,
    );
    expect(circuitRefusal(`${head}rzz(0.3) $0, $1;\n${GATE_DEFINITIONS.rzz}\n`)).toMatch(
      /gate rzz is not defined/,
    );
    // A definition's body is checked too, comments are not.
    expect(circuitRefusal(`${head}gate e a, b { iswap a, b; }\n// iswap $0;\n`)).toMatch(
      /gate iswap/,
    );
    expect(circuitRefusal(`${head}// ecr $0, $1;\nU(0, 0, 0.5) $0;\n`)).toBeUndefined();
  });
});

describe('the adapter against the checking fake', () => {
  it('runs ibm_brisbane’s circuits (ecr defined in the program) and decodes their distribution', async () => {
    fake.answerPub = simulatedAnswer;
    serveDevice(IBM_BRISBANE_SNAPSHOT);
    const batch = problem(42, 4);
    const sampler = createIbmSampler(
      samplerOptions({ backend: 'ibm_brisbane', maxSpins: 8, shots: 20_000, anneal }),
    );
    const result = await sampler.sample(batch);
    const want = annealDistribution(batchProblem(batch, 0), { ...anneal, beta: batch.beta });
    const got = empirical(result, 4, 0);
    expect(got.reduce((acc, p, s) => acc + Math.abs(p - want[s]!), 0) / 2).toBeLessThan(0.03);
    const [submitted] = posts();
    const circuit: string = JSON.parse(submitted!.body).params.pubs[0][0];
    expect(circuit).toContain('include "stdgates.inc";');
    expect(circuit).toContain(GATE_DEFINITIONS.ecr);
    expect(circuit).toMatch(/^ecr \$\d+, \$\d+;$/m);
    expectNoLeaks();
  });

  it('gets a coded, non-retryable rejection for a circuit without the include or with an undefined gate, sent once', async () => {
    const client = createRuntimeClient(clientOptions());
    const noInclude = `OPENQASM 3.0;\n${measured}`;
    const e1 = await rejection(
      client.submitSamplerJob({ backend: 'fake_line7', pubs: [[noInclude, null, 8]] }),
    );
    expect(e1).toMatchObject({ code: 'ADAPTER_REJECTED', retryable: false, status: 400 });
    expect(e1.message).toMatch(/HTTP 400.*pub 0: the circuit lacks include .*stdgates\.inc/);
    expect(posts()).toHaveLength(1);
    const undefinedGate = `OPENQASM 3.0;\ninclude "stdgates.inc";\n${measured}ecr $0, $1;\n`;
    const e2 = await rejection(
      client.submitSamplerJob({
        backend: 'fake_line7',
        pubs: [
          [`OPENQASM 3.0;\ninclude "stdgates.inc";\n${measured}`, null, 8],
          [undefinedGate, null, 8],
        ],
      }),
    );
    expect(e2).toMatchObject({ code: 'ADAPTER_REJECTED', retryable: false, status: 400 });
    expect(e2.message).toMatch(/pub 1: gate ecr is not defined/);
    expect(posts()).toHaveLength(2);
    expect(fake.jobs.size).toBe(0);
  });
});
