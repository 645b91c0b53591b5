import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, watchedPage } from './browser/chromium.js';
import { serveStatic } from './browser/staticServer.js';
import type { StaticServer } from './browser/staticServer.js';

/**
 * @boltzmann/attention on the TensorFlow.js backends of a real browser (Debian's Chromium, with
 * software WebGL and WebGPU on SwiftShader): the same model's loss and every parameter's gradient,
 * with the exact Boltzmann op inside, and the drop-in layer's gradients in q, k, v and J, on webgl,
 * webgpu and cpu against the wasm backend, to float32 tolerance. The page is bundled by esbuild and served on 127.0.0.1 with tfjs's wasm binaries.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const attention = join(root, 'packages', 'attention');
const missing = chromiumMissing();
// WebGPU has no synchronous read, and tfjs-backend-webgpu 4.22's dataSync copies the buffer into
// an OffscreenCanvas 'webgpu' context drawn onto a 2D canvas, which Chromium's SwiftShader adapter
// cannot do (device lost: "A valid external Instance reference no longer exists"; dataSync gives
// zeros). So on webgpu the page runs as the attention README says: `prepare` reads the fields
// asynchronously and computes each layer's weights and their Jacobians, and the differentiable
// pass is tensor ops only (tfjs/residentGradients.ts).
const BACKENDS = ['wasm', 'webgl', 'webgpu', 'cpu'] as const;

const PAGE = `
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import '@tensorflow/tfjs-backend-webgpu';
import {
  boltzmannAttention, createTrainer, createTransformer, initBackend, maskedCrossEntropy,
  prepareBoltzmannAttention,
} from '@boltzmann/attention';

window.run = async (backend) => {
  setWasmPaths('/');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  const active = await initBackend(backend, { log: () => {} });
  const model = createTransformer({ vocabSize: 7, maxLength: 6, dModel: 8, heads: 2, layers: 2,
    ffnHidden: 16, variant: 'boltzmann', seed: 5, jInitStd: 0.4 });
  const inputs = Int32Array.from({ length: 18 }, (_, i) => (i * 3 + 1) % 7);
  const targets = Int32Array.from({ length: 18 }, (_, i) => (i * 5 + 2) % 7);
  const mask = new Float32Array(18).fill(1);
  // webgpu cannot read synchronously: phase 1 (prepare) first, as a training step does.
  const prepared = backend === 'webgpu' ? await model.prepare(inputs, 3) : undefined;
  const { value, grads } = tf.variableGrads(() => maskedCrossEntropy(model.logits(inputs, 3, prepared), targets, mask));
  const out = { backend: active, loss: (await value.data())[0], grads: {} };
  for (const p of model.parameters) out.grads[p.name] = Array.from(await grads[p.variable.name].data());
  tf.dispose([value, ...Object.values(grads)]);
  // One AdamW step (the trainer prepares by itself on webgpu): the updated weights.
  const trainer = createTrainer(model, { totalSteps: 4, lr: 0.05, warmupSteps: 0 });
  out.trainLoss = (await trainer.step({ inputs, targets, mask, batchSize: 3 })).loss;
  for (const p of model.parameters) out.grads['trained/' + p.name] = Array.from(await p.variable.data());
  model.dispose();
  // The drop-in layer: B 2, H 2, T 5, d 4, its gradients in q, k, v and J.
  const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed) * 0.8);
  const [q, k, v] = [1, 2, 3].map((s) => tf.variable(tf.tensor4d(fill(80, s), [2, 2, 5, 4])));
  const upper = tf.sub(tf.linalg.bandPart(tf.ones([5, 5]), 0, -1), tf.eye(5));
  const J = tf.variable(tf.mul(tf.tensor3d(fill(50, 4), [2, 5, 5]), upper));
  const c = tf.tensor4d(fill(80, 5), [2, 2, 5, 4]);
  const options = { couplings: J, beta: 0.9 };
  const layerPrepared = backend === 'webgpu' ? await prepareBoltzmannAttention(q, k, options) : undefined;
  const layer = tf.variableGrads(() =>
    tf.sum(tf.mul(boltzmannAttention(q, k, v, { ...options, prepared: layerPrepared }), c)), [q, k, v, J]);
  for (const [name, t] of [['query', q], ['key', k], ['value', v], ['couplings', J]])
    out.grads['layer/' + name] = Array.from(await layer.grads[t.name].data());
  tf.dispose([q, k, v, J, c, upper, layer.value, ...Object.values(layer.grads)]);
  return out;
};`;

async function bundle(): Promise<Map<string, string | Uint8Array>> {
  const result = await build({
    stdin: { contents: PAGE, resolveDir: attention, loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    conditions: ['@boltzmann/source'],
  });
  const files = new Map<string, string | Uint8Array>([
    ['page.js', result.outputFiles[0]!.text],
    [
      'index.html',
      '<!doctype html><meta charset="utf-8"><title>backends</title><script type="module" src="./page.js"></script>',
    ],
  ]);
  const wasmDir = join(attention, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
  for (const name of ['', '-simd', '-threaded-simd'])
    files.set(
      `tfjs-backend-wasm${name}.wasm`,
      readFileSync(join(wasmDir, `tfjs-backend-wasm${name}.wasm`)),
    );
  return files;
}

type Outcome = {
  backend: string;
  loss: number;
  trainLoss: number;
  grads: Record<string, number[]>;
};

describe.skipIf(missing !== undefined)(
  `attention on every tfjs backend in Chromium${missing === undefined ? '' : ` (skipped: ${missing})`}`,
  () => {
    let browser: Browser;
    let server: StaticServer;
    const outcomes = new Map<string, Outcome>();

    beforeAll(async () => {
      const [b, files] = await Promise.all([launchChromium({ gpu: true }), bundle()]);
      browser = b;
      server = await serveStatic(files, { isolated: false });
      for (const backend of BACKENDS) {
        const watched = await watchedPage(browser);
        await watched.page.goto(server.url);
        await watched.page.waitForFunction(
          () => typeof (globalThis as { run?: unknown }).run === 'function',
        );
        const outcome = await watched.page.evaluate(
          (name) => (globalThis as unknown as { run(b: string): Promise<Outcome> }).run(name),
          backend,
        );
        expect(watched.offLoopback, backend).toEqual([]);
        await watched.page.context().close();
        outcomes.set(backend, outcome);
      }
    }, 240_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    for (const backend of BACKENDS.slice(1))
      it(`${backend}: the wasm backend's loss, every gradient and one trainer step, to float32 tolerance`, () => {
        const want = outcomes.get('wasm')!;
        const got = outcomes.get(backend)!;
        expect([want.backend, got.backend]).toEqual(['wasm', backend]);
        expect(Math.abs(got.loss - want.loss)).toBeLessThan(1e-4 * Math.max(1, want.loss));
        expect(Math.abs(got.trainLoss - want.trainLoss)).toBeLessThan(
          1e-4 * Math.max(1, want.loss),
        );
        expect(Object.keys(got.grads).sort()).toEqual(Object.keys(want.grads).sort());
        for (const [name, w] of Object.entries(want.grads)) {
          const g = got.grads[name]!;
          const scale = Math.max(1e-3, ...w.map(Math.abs));
          const worst = Math.max(...w.map((x, i) => Math.abs(x - g[i]!)));
          expect(worst / scale, `${backend} ${name}`).toBeLessThan(2e-3);
        }
      });
  },
);
