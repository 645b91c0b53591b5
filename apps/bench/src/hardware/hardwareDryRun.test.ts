import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expandGrid,
  hardwareDryRun,
  hardwareRuns,
  main,
  parseBenchArgs,
  samplerTrafficOfRun,
} from '../index.js';
import { runId } from '../grid/expandGrid.js';
import { createBenchRegistry } from '../samplers/registry.js';

const CREDENTIALS = [
  'DWAVE_API_TOKEN',
  'AWS_REGION',
  'AWS_PROFILE',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'IBM_CLOUD_API_KEY',
  'IBM_QUANTUM_CRN',
];
const saved = new Map<string, string | undefined>();
beforeEach(() => {
  // The dry run must need no credentials at all.
  for (const k of CREDENTIALS) {
    saved.set(k, process.env[k]);
    delete process.env[k];
  }
});
afterEach(() => {
  for (const [k, v] of saved) if (v !== undefined) process.env[k] = v;
});

const args = (sampler: string, dir: string) => [
  'brackets',
  '--lengths',
  '4',
  '--variants',
  'boltzmann',
  '--mode',
  'prefix',
  '--d-model',
  '16',
  '--sampler',
  sampler,
  '--dry-run',
  '--workers',
  '0',
  '--results',
  dir,
];

async function dryRun(
  sampler: string,
): Promise<{ dir: string; code: number; out: string[]; err: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), `bench-hw-dry-${sampler}-`));
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args(sampler, dir), {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
  });
  return { dir, code, out, err };
}

describe('--dry-run with a hardware sampler', () => {
  it('dwave: writes the SAPI submissions of the first training batch (qp data, token redacted) and counts the traffic', async () => {
    const { dir, code, out, err } = await dryRun('dwave');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const call = join(dir, 'dry-run', 'dwave-0001');
    const files = readdirSync(call);
    // Batch 64 × T 4 = 256 problems, 20 per POST.
    expect(files.filter((f) => f.startsWith('submit-'))).toHaveLength(13);
    expect(files.filter((f) => f.endsWith('.bqm.json'))).toHaveLength(256);
    expect(existsSync(join(dir, 'dry-run', 'dwave-0002'))).toBe(false);
    const text = readFileSync(join(call, 'submit-001.json'), 'utf8');
    const submit = JSON.parse(text) as {
      method: string;
      url: string;
      headers: Record<string, string>;
      body: { type: string; data: { format: string; lin: string; quad: string } }[];
    };
    expect(submit.method).toBe('POST');
    expect(submit.url).toMatch(/\/sapi\/v2\/problems\/$/);
    expect(submit.headers['X-Auth-Token']).toBe('***');
    expect(submit.body).toHaveLength(20);
    expect(submit.body[0]!.type).toBe('ising');
    expect(submit.body[0]!.data.format).toBe('qp');
    expect(submit.body[0]!.data.lin.length).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(call, 'submit-013.json'), 'utf8')).body).toHaveLength(
      256 - 12 * 20,
    );
    expect(out).toContain('dry run of sampler "dwave": nothing was sent, no credentials were used');
    expect(out).toContain(
      `  ${join(call, 'submit-001.json')} … ${join(call, 'submit-013.json')} (13 files)`,
    );
    expect(
      out.some((l) =>
        l.startsWith(
          'one training step sends 1 sampler call with 256 problems (13 D-Wave submit requests',
        ),
      ),
    ).toBe(true);
    expect(out.some((l) => l.startsWith('the whole grid (1 run using "dwave"'))).toBe(true);
  });

  it('braket: writes one OpenQASM 3 program and its CreateQuantumTask input per problem', async () => {
    const { dir, code, out, err } = await dryRun('braket');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const call = join(dir, 'dry-run', 'braket-0001');
    const files = readdirSync(call);
    expect(files.filter((f) => f.endsWith('.qasm'))).toHaveLength(256);
    expect(files.filter((f) => f.startsWith('create-quantum-task-'))).toHaveLength(256);
    const qasm = readFileSync(join(call, 'problem-0003.qasm'), 'utf8');
    expect(qasm.startsWith('OPENQASM 3.0;')).toBe(true);
    expect(qasm).toMatch(/^qubit\[4\] q;$/m);
    expect(qasm).toMatch(/^c\[3\] = measure q\[3\];$/m);
    const task = JSON.parse(readFileSync(join(call, 'create-quantum-task-0003.json'), 'utf8')) as {
      action: string;
      deviceArn: string;
      shots: number;
      outputS3Bucket: string;
    };
    const action = JSON.parse(task.action) as {
      braketSchemaHeader: { name: string };
      source: string;
    };
    expect(action.braketSchemaHeader.name).toBe('braket.ir.openqasm.program');
    expect(action.source).toBe(qasm);
    expect(task.deviceArn).toContain('quantum-simulator/amazon/sv1');
    expect(task.shots).toBe(1000);
    expect(
      out.some((l) =>
        l.startsWith(
          'one training step sends 1 sampler call with 256 problems (256 Braket quantum tasks',
        ),
      ),
    ).toBe(true);
  });

  it('ibm: writes the IAM, session and job requests with no credential, the routed circuits and the QPU time', async () => {
    // A key in the environment must not reach any file (a dry run does not even read it).
    const key = 'ibm-cloud-key-that-must-not-leak-0123456789';
    process.env.IBM_CLOUD_API_KEY = key;
    const { dir, code, out, err } = await dryRun('ibm');
    delete process.env.IBM_CLOUD_API_KEY;
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const call = join(dir, 'dry-run', 'ibm-0001');
    expect(readdirSync(call).sort()).toEqual([
      'circuits.json',
      'estimate.json',
      'fidelity.json',
      'iam-token-request.json',
      'job-001-request.json',
      'session-request.json',
    ]);
    for (const f of readdirSync(call)) {
      const text = readFileSync(join(call, f), 'utf8');
      expect(text, f).not.toContain(key);
      expect(text, f).not.toMatch(/Bearer (?!<redacted)/);
    }
    // Batch 64 × T 4 = 256 problems of 1–4 spins, one job of ≤ 300 circuits on ibm_fez.
    const job = JSON.parse(readFileSync(join(call, 'job-001-request.json'), 'utf8')) as {
      url: string;
      body: { backend: string; params: { pubs: [string, null, number][] } };
    };
    expect(job.url).toMatch(/\/api\/v1\/jobs$/);
    expect(job.body.backend).toBe('ibm_fez');
    expect(job.body.params.pubs).toHaveLength(256);
    expect(job.body.params.pubs[3]![0]).toMatch(/^OPENQASM 3\.0;\n/);
    expect(job.body.params.pubs[3]![0]).toMatch(/\nbit\[4\] c;\n/);
    const circuits = JSON.parse(readFileSync(join(call, 'circuits.json'), 'utf8')) as {
      spins: number;
      depth: number;
      twoQubitGates: number;
    }[];
    expect(circuits).toHaveLength(256);
    expect(circuits[3]!.spins).toBe(4);
    expect(circuits[3]!.twoQubitGates).toBeGreaterThan(0);
    const step = out.find((l) => l.startsWith('one training step sends 1 sampler call'));
    expect(step).toMatch(/\(1 IBM Sampler V2 jobs of ≤ 300 circuits: ≈ [\d,.]+ QPU seconds\)/);
    expect(out.some((l) => l.startsWith('the whole grid (1 run using "ibm"'))).toBe(true);
    // The cost beside the Open Plan's limit, and the circuits' expected fidelity by size.
    expect(
      out.some((l) => /limit: the Open Plan: 10 minutes .* the grid needs [\d,.]+× it$/.test(l)),
    ).toBe(true);
    expect(out).toContain(
      "expected circuit fidelity on ibm_fez (calibration: the backend's properties of 2025-02-26T15:16:25-05:00; threshold 0.25):",
    );
    expect(
      out.some((l) =>
        /^ {2}the grid's circuits: mean expected fidelity 0\.\d+, lowest 0\.\d+/.test(l),
      ),
    ).toBe(true);
    expect(
      out.some((l) =>
        /^ {2}4 spins: \d+ Trotter steps \(chosen by the threshold; anneal time τ = [\d.]+\) → 0\.\d+ on qubits /.test(
          l,
        ),
      ),
    ).toBe(true);
  });

  it('a non-hardware sampler only prints the grid, as before', async () => {
    const { dir, code, out } = await dryRun('exact');
    expect(code).toBe(0);
    expect(out.some((l) => l.startsWith('grid: 1 run'))).toBe(true);
    expect(out.some((l) => l.includes('dry run of sampler'))).toBe(false);
    expect(existsSync(join(dir, 'dry-run'))).toBe(false);
  });
});

describe('hardwareRuns and samplerTrafficOfRun', () => {
  const grid = (...extra: string[]) =>
    expandGrid(parseBenchArgs(['brackets', '--lengths', '4,8', ...extra], () => undefined)!);

  it('selects only runs whose sampler declares capabilities.dryRun (dwave, braket), or a sampler given a dryRun option', async () => {
    const registry = await createBenchRegistry([]);
    expect(
      hardwareRuns(grid('--sampler', 'dwave'), registry)
        .map((c) => c.variant)
        .sort(),
    ).toEqual(['boltzmann', 'boltzmann', 'coupling', 'coupling']);
    expect(
      hardwareRuns(grid('--sampler', 'braket', '--variants', 'boltzmann'), registry),
    ).toHaveLength(2);
    expect(
      hardwareRuns(grid('--sampler', 'dwave', '--variants', 'softmax,sigmoid'), registry),
    ).toEqual([]);
    expect(hardwareRuns(grid('--sampler', 'exact'), registry)).toEqual([]);
    expect(
      hardwareRuns(
        grid('--sampler', 'mine', '--sampler-options', '{"dryRun":{}}', '--variants', 'boltzmann'),
        registry,
      ),
    ).toHaveLength(2);
  });

  it('counts calls, problems and 20-problem submit requests of a step and of a whole run', async () => {
    const [config] = hardwareRuns(
      grid(
        '--sampler',
        'dwave',
        '--variants',
        'boltzmann',
        '--lengths',
        '4',
        '--steps',
        '10',
        '--eval-every',
        '4',
        '--batch-size',
        '8',
      ),
      await createBenchRegistry([]),
    );
    // Step: 8 × 4 = 32 problems, 2 submits. Evaluations at steps 4, 8 and 10; each runs 300 rows
    // in chunks 128 + 128 + 44 and 5 rows in one chunk: 4 calls, 305 × 4 = 1,220 problems,
    // 26 + 26 + 9 + 1 = 62 submits. IBM packs ≤ 300 circuits in a job: a step is 1 job, an
    // evaluation 2 + 2 + 1 + 1 = 6 (512, 512, 176 and 20 circuits).
    const t = samplerTrafficOfRun(config!, [300, 5]);
    expect(t.step).toEqual({ calls: 1, problems: 32, submitRequests: 2, ibmJobs: 1 });
    expect(t.run).toEqual({
      calls: 10 + 3 * 4,
      problems: 320 + 3 * 1220,
      submitRequests: 20 + 3 * 62,
      ibmJobs: 10 + 3 * 6,
    });
  });
});

describe('a resumed hardware grid is estimated on what it still has to train', () => {
  it('counts a resumed run from its checkpoint, and leaves finished runs out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-hw-pending-'));
    const argv = [...args('dwave', dir), '--steps', '10', '--eval-every', '4', '--batch-size', '8'];
    const command = parseBenchArgs(argv)!;
    const registry = await createBenchRegistry([]);
    const [config] = hardwareRuns(expandGrid(command), registry);
    const id = runId(config!);
    const full: string[] = [];
    await hardwareDryRun(command, [config!], (l) => void full.push(l), registry);
    const resumed: string[] = [];
    const pending = [{ config: config!, id, startStep: 6, doneFraction: 0.6 }];
    await hardwareDryRun(command, [config!], (l) => void resumed.push(l), registry, { pending });
    const calls = (lines: string[]) =>
      Number(
        /sends ([\d,]+) sampler calls/
          .exec(lines.find((l) => l.startsWith('the whole grid'))!)![1]!
          .replaceAll(',', ''),
      );
    // From step 6: 4 steps and the evaluations at 8 and 10 (those at 4 and 8 before it, 10 at the end).
    const evalCalls = (calls(full) - 10) / 3;
    expect(calls(resumed)).toBe(4 + 2 * evalCalls);
    expect(resumed.find((l) => l.startsWith('the whole grid'))).toMatch(
      /still to train, 1 counted from its checkpoint/,
    );
    // One chunk per evaluation of 8 rows: 4 steps and 2 evaluations, one call per head each.
    const rows = samplerTrafficOfRun(config!, [8], 300, 6);
    expect(rows.run.calls).toBe(6 * rows.step.calls);
    const finished: string[] = [];
    const none = await hardwareDryRun(command, [config!], (l) => void finished.push(l), registry, {
      pending: [],
    });
    expect(none).toBe(false);
    expect(finished).toEqual(['every run using "dwave" has finished: nothing to send']);
  });
});
