import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { createTransformer, initBackend } from '../index.js';
import { maxAbsDiff, randomTokens, take } from '../testing/testUtils.js';

describe('initBackend', () => {
  it('selects wasm, is idempotent, switches to cpu on request, and both backends compute the same model', async () => {
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    const first = initBackend('wasm', { log });
    expect(initBackend('wasm', { log })).toBe(first);
    expect(await first).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(logs).toEqual(['@boltzmann/attention: TensorFlow.js backend "wasm"']);

    const model = createTransformer({
      vocabSize: 5,
      maxLength: 6,
      dModel: 8,
      variant: 'boltzmann',
      jInitStd: 0.3,
    });
    const inputs = randomTokens(12, 5, 3);
    const onWasm = take(await model.forward(inputs, 2));
    expect(await initBackend('cpu', { log })).toBe('cpu');
    expect(tf.getBackend()).toBe('cpu');
    const onCpu = take(await model.forward(inputs, 2));
    expect(maxAbsDiff(onWasm, onCpu)).toBeLessThan(1e-5);
    model.dispose();
    await expect(initBackend('' as never)).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_ARGUMENT',
    });
  });

  it('runs on any backend registered by name, and names the package of one that is not', async () => {
    tf.registerBackend('cpu-twin', tf.findBackendFactory('cpu')!);
    for (const kernel of tf.getKernelsForBackend('cpu'))
      tf.registerKernel({ ...kernel, backendName: 'cpu-twin' });
    const model = createTransformer({
      vocabSize: 5,
      maxLength: 6,
      dModel: 8,
      variant: 'boltzmann',
    });
    const inputs = randomTokens(12, 5, 4);
    await initBackend('cpu', { log: () => {} });
    const onCpu = take(await model.forward(inputs, 2));
    expect(await initBackend('cpu-twin', { log: () => {} })).toBe('cpu-twin');
    expect(tf.getBackend()).toBe('cpu-twin');
    expect(maxAbsDiff(onCpu, take(await model.forward(inputs, 2)))).toBe(0);
    model.dispose();
    await expect(initBackend('webgpu', { log: () => {} })).rejects.toMatchObject({
      code: 'ATTENTION_BACKEND_UNAVAILABLE',
      message: expect.stringContaining('@tensorflow/tfjs-backend-webgpu'),
    });
    await initBackend('cpu', { log: () => {} });
    tf.removeBackend('cpu-twin');
  });

  it("a model made without initBackend (tfjs's cpu default in Node) prints no tfjs-node banner", () => {
    const script = `import('./src/index.ts').then(async ({ createTransformer }) => {
      const model = createTransformer({ vocabSize: 5, maxLength: 4, dModel: 8 });
      (await model.forward(Int32Array.of(1, 2, 3, 4), 1)).dispose();
      console.log('ran');
    });`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--conditions=@boltzmann/source', '--input-type=module', '-e', script],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stdout.trim()).toBe('ran');
    expect(run.stderr).not.toContain('tfjs-node');
  });

  it('prints nothing by default; DEBUG=boltzmann:* reports the backend on stderr, never stdout', () => {
    const script = `import('./src/index.ts').then(async ({ initBackend }) => {
      console.log(JSON.stringify(await initBackend()));
    });`;
    const run = (DEBUG: string) =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', '--conditions=@boltzmann/source', '--input-type=module', '-e', script],
        {
          cwd: fileURLToPath(new URL('../..', import.meta.url)),
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, DEBUG },
        },
      );
    const quiet = run('');
    expect(quiet.stdout).toBe('"wasm"\n');
    expect(quiet.stderr).toBe('');
    const loud = run('boltzmann:*');
    expect(loud.stdout).toBe('"wasm"\n');
    expect(loud.stderr).toBe('boltzmann:attention TensorFlow.js backend "wasm"\n');
  });
});
