/*
 * Hostile model files through `bench sample`: a model file is data. Its sampler options may not
 * send the user's credentials to a URL of its choice or write files where it says, its sizes are
 * bounded before anything is allocated, and a sampler that never returns stays interruptible.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpAfterAll, spawnBench, trapServer } from '../testing/queueTestkit.js';

const { children } = cleanUpAfterAll();

const repo = fileURLToPath(new URL('../../../..', import.meta.url));
const saved = JSON.parse(
  readFileSync(
    join(
      repo,
      'docs/results/shakespeare/models/shakespeare-boltzmann-T8-d64-ffn-s0-a66b289e5469.json',
    ),
    'utf8',
  ),
) as {
  config: Record<string, unknown>;
  model: {
    config: Record<string, unknown>;
    weights: Record<string, { shape: number[]; data: number[] }>;
  };
};
const dir = mkdtempSync(join(tmpdir(), 'bench-sample-trust-'));
const TOKEN = 'DEV-model-trap-token-93ad';

/** A copy of the saved T = 8 model whose config is changed by `change` (and its weights by `weights`). */
function model(
  name: string,
  change: Record<string, unknown>,
  weights: Record<string, unknown> = {},
): string {
  const path = join(dir, `${name}.json`);
  const copy = {
    ...saved,
    model: {
      ...saved.model,
      config: { ...saved.model.config, ...change },
      weights: { ...saved.model.weights, ...weights },
    },
  };
  writeFileSync(path, JSON.stringify(copy));
  return path;
}

const trap = trapServer();
afterAll(async () => (await trap).close());

/** `bench sample` as a user runs it, with a D-Wave token and AWS keys in its environment. */
async function sample(...args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnBench(['sample', '--chars', '3', ...args], {
    DWAVE_API_TOKEN: TOKEN,
    AWS_ACCESS_KEY_ID: 'AKIATRAPTRAPTRAP',
    AWS_SECRET_ACCESS_KEY: TOKEN,
  });
  children.push(child);
  const { code } = await child.exit;
  return { code, output: child.output() };
}

describe('bench sample with a hostile model file', () => {
  it('refuses sampler options that say where requests or files go, before anything is sent or written', async () => {
    const { url, hits } = await trap;
    const cases = {
      dwave: model('dwave', { sampler: 'dwave', samplerOptions: { endpoint: url } }),
      braket: model('braket', {
        sampler: 'braket',
        samplerOptions: { endpoint: url, outputS3Bucket: 'b', s3Endpoint: url },
      }),
      dryRun: model('dry', {
        sampler: 'dwave',
        samplerOptions: { dryRun: { dir: join(dir, 'dry-run-here') } },
      }),
      nested: model('nested', {
        sampler: 'dwave',
        samplerOptions: { params: { servers: [{ url }] } },
      }),
    };
    for (const [name, path] of Object.entries(cases)) {
      const r = await sample('--model', path);
      expect({ name, code: r.code }).toEqual({ name, code: 1 });
      expect(r.output).toMatch(
        /error \[BENCH_FORBIDDEN_OPTION\]: --model .* sets samplerOptions\./,
      );
      expect(r.output).not.toContain(TOKEN);
    }
    expect(hits).toEqual([]);
    expect(existsSync(join(dir, 'dry-run-here'))).toBe(false);
  }, 120_000);

  it('never lets a model file choose a remote sampler: an ibm model generates locally, IAM is never contacted', async () => {
    const { url, hits } = await trap;
    // Every fetch of the bench and its sampling process goes to the trap (no network), recorded.
    const preload = join(dir, 'fetchTrap.mjs');
    writeFileSync(
      preload,
      `const real = globalThis.fetch;
globalThis.fetch = async (input) => {
  const to = String(input?.url ?? input);
  await real(${JSON.stringify(url)} + 'fetch?to=' + encodeURIComponent(to), { method: 'POST' });
  throw new TypeError('fetch trapped: ' + to);
};
`,
    );
    const env = {
      NODE_OPTIONS: `--import ${pathToFileURL(preload).href}`,
      IBM_CLOUD_API_KEY: TOKEN,
      IBM_QUANTUM_CRN: 'crn:v1:bluemix:public:quantum-computing:us-east:a/trap::',
    };
    const ibm = model('ibm', {
      sampler: 'ibm',
      samplerOptions: { backend: 'ibm_fez', shots: 1e12 },
    });
    const local = spawnBench(['sample', '--chars', '3', '--model', ibm], env);
    children.push(local);
    expect((await local.exit).code).toBe(0);
    expect(local.output()).toMatch(/note: --model .* names the remote sampler "ibm".*"exact"/);
    expect(local.output()).not.toContain(TOKEN);
    expect(hits).toEqual([]);
    // The user's own --sampler asks for it: then, and only then, the key goes to IAM (the trap).
    const remote = spawnBench(
      ['sample', '--chars', '3', '--model', ibm, '--sampler', 'ibm'].concat([
        '--sampler-options',
        '{"backend":"ibm_fez","shots":100}',
      ]),
      env,
    );
    children.push(remote);
    expect((await remote.exit).code).toBe(1);
    expect(hits.some((h) => h.includes(encodeURIComponent('https://iam.cloud.ibm.com')))).toBe(
      true,
    );
    hits.length = 0;
  }, 120_000);

  it('bounds its sizes and its sampler settings with coded errors, never an out-of-memory crash', async () => {
    const huge = await sample('--model', model('layers', { layers: 1e7 }));
    expect(huge.code).toBe(1);
    expect(huge.output).toMatch(/error \[BENCH_BAD_MODEL\]: .*layers/);
    const chains = await sample(
      '--model',
      model('chains', { sampler: 'gibbs', samplerOptions: { chains: 1e9 } }),
    );
    expect(chains.code).toBe(1);
    expect(chains.output).toMatch(/error \[ISING_INVALID_ARGUMENT\]: .*chains/);
    // A weight that overflows float32 is not a finite weight.
    const gamma = saved.model.weights['block/norm1/gamma']!;
    const overflow = await sample(
      '--model',
      model(
        'overflow',
        {},
        { 'block/norm1/gamma': { ...gamma, data: gamma.data.map((v, i) => (i === 3 ? 1e39 : v)) } },
      ),
    );
    expect(overflow.code).toBe(1);
    expect(overflow.output).toMatch(/error \[BENCH_BAD_MODEL\]: .*norm1\/gamma/);
    // A 2-million-character sampler name is echoed in a bounded line.
    const long = await sample('--model', model('long', { sampler: 'x'.repeat(2_000_000) }));
    expect(long.code).toBe(1);
    expect(long.output).toMatch(/error \[\w+\]: /);
    expect(Math.max(...long.output.split('\n').map((l) => l.length))).toBeLessThan(600);
  }, 120_000);

  it('stays interruptible: SIGTERM ends a sampler that never returns within a second or two', async () => {
    const plugin = join(dir, 'stuckSampler.mjs');
    writeFileSync(
      plugin,
      `const capabilities = { exact: false, maxSpins: 64, async: false, deterministic: true };
export default {
  name: 'stuck', version: '1.0.0', capabilities,
  create: () => ({
    name: 'stuck', capabilities,
    sample() { const end = Date.now() + 300000; while (Date.now() < end) {} throw new Error('unreachable'); },
  }),
};
`,
    );
    const child = spawnBench([
      'sample',
      '--model',
      model('stuck', { sampler: 'stuck' }),
      '--plugin',
      plugin,
    ]);
    children.push(child);
    // The backend line is printed once the model loaded: from then on the sampler spins.
    const t0 = Date.now();
    while (!child.output().includes('TensorFlow.js backend') && Date.now() - t0 < 60_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(child.output()).toContain('TensorFlow.js backend');
    await new Promise((r) => setTimeout(r, 1000));
    const sent = Date.now();
    child.proc.kill('SIGTERM');
    const { code } = await child.exit;
    const seconds = (Date.now() - sent) / 1000;
    expect(code).toBe(130);
    expect(child.output()).toContain('error [BENCH_INTERRUPTED]');
    // One second is the goal; the bound leaves room for a loaded CI machine.
    expect(seconds).toBeLessThan(5);
    // Killed outright (SIGKILL, no handler runs), the bench leaves no sampling process behind.
    const killed = spawnBench([
      'sample',
      '--model',
      model('stuck', { sampler: 'stuck' }),
      '--plugin',
      plugin,
    ]);
    children.push(killed);
    const t1 = Date.now();
    while (!killed.output().includes('TensorFlow.js backend') && Date.now() - t1 < 60_000)
      await new Promise((r) => setTimeout(r, 50));
    const sampler = Number(
      execFileSync('pgrep', ['-P', String(killed.proc.pid)], { encoding: 'utf8' }).trim(),
    );
    expect(sampler).toBeGreaterThan(0);
    killed.proc.kill('SIGKILL');
    await killed.exit;
    const alive = (): boolean => {
      try {
        process.kill(sampler, 0);
        return readFileSync(`/proc/${sampler}/stat`, 'utf8').split(' ')[2] !== 'Z';
      } catch {
        return false;
      }
    };
    const t2 = Date.now();
    while (alive() && Date.now() - t2 < 10_000) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  }, 120_000);
});
