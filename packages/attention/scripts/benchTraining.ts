/**
 * Training speed of the two reference models, with a breakdown of one step and the roofline.
 *
 *   cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchTraining.ts \
 *     [--model paper|baby] [--variants softmax,boltzmann] [--sampler exact|tap|transfer-matrix]
 *     [--precision float64|float32] [--threads 1] [--steps 20]
 *
 * - `paper`: METHOD.md §5, 1 layer, 1 head, d_model 64, FFN 256, batch 64, T = 12 (boltzmann: exact).
 * - `baby`: nanoGPT's shakespeare_char CPU model, 4 layers × 4 heads, d_model 128, batch 12, T = 64,
 *   no biases, tied embeddings (boltzmann: tap; transfer-matrix runs banded:8 couplings).
 *
 * Prints steps/s (median step), the split of a step (tfjs matmul kernels, other tfjs kernels,
 * the Ising sampler, our batched attention products, the optimizer, and the rest: JS and backend
 * dispatch), the step's matrix FLOPs and the fraction of this machine's measured wasm matmul rate.
 * One process, one thread: run it on an idle machine (a grid on the other core halves the figures).
 */
import * as tf from '@tensorflow/tfjs';
import { batchedMatMul, createRng, floorScaledInt } from '@boltzmann/ising-core';
import type { Sampler } from '@boltzmann/ising-core';
import { createTrainer, createTransformer, initBackend } from '../src/index.js';
import {
  BENCH_MODELS as MODELS,
  benchHasFfn,
  benchModelConfig,
  benchSampler,
  timedSampler,
} from '../bench/benchModels.js';
import type { AttentionVariant, TransformerConfig } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

parseScriptArgs(
  'benchTraining.ts [--model VALUE] [--precision VALUE] [--sampler VALUE] [--steps VALUE] [--threads VALUE] [--variants VALUE]',
  {
    model: 'string',
    precision: 'string',
    sampler: 'string',
    steps: 'string',
    threads: 'string',
    variants: 'string',
  },
);

const modelName = scriptArg('model', 'paper');
const steps = Number(scriptArg('steps', '20'));
const variants = scriptArg('variants', 'softmax,boltzmann').split(',') as AttentionVariant[];
const samplerName = scriptArg('sampler', modelName === 'paper' ? 'exact' : 'tap');
/** Threads of the Ising sampler (tfjs itself runs on one thread in Node). */
const threads = Number(scriptArg('threads', '1'));
/** Message precision of the transfer-matrix sampler (`float32`: its four-lane kernel). */
const precision = scriptArg('precision', 'float64') as 'float64' | 'float32';

const m = MODELS[modelName as keyof typeof MODELS];
if (m === undefined)
  throw new Error(`--model must be ${Object.keys(MODELS).join(', ')}, got ${modelName}`);
const VOCAB = m.vocab;
const FFN_HIDDEN = benchHasFfn(m) ? m.ffnHidden : 0;

/** Multiply-adds of one forward pass: projections, FFN, head, and the two attention products. */
function forwardMacs(): { dense: number; attention: number } {
  const rows = m.batch * m.length;
  const dense =
    rows * (m.layers * (4 * m.dModel * m.dModel + 2 * m.dModel * FFN_HIDDEN) + m.dModel * VOCAB);
  const attention = m.layers * 2 * m.batch * m.length * m.length * m.dModel;
  return { dense, attention };
}

/** The best rate of tfjs-wasm's (XNNPACK) matmul on this machine, at the model's own large shape. */
function peakGflops(): number {
  const a = tf.randomNormal([m.batch * m.length, m.dModel]);
  const b = tf.randomNormal([m.dModel, m.ffnHidden]);
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) tf.matMul(a, b).dispose();
    tf.matMul(a, b).dataSync();
    best = Math.min(best, (performance.now() - t0) / 21);
  }
  tf.dispose([a, b]);
  return (2 * m.batch * m.length * m.dModel * m.ffnHidden) / best / 1e6;
}

/** Milliseconds of the attention products of one step (2 forward, 4 backward per layer) in our kernel. */
function attentionProductMs(): number {
  const batch = m.batch * m.heads;
  const dh = m.dModel / m.heads;
  const q = new Float32Array(batch * m.length * dh).fill(0.5);
  const w = new Float32Array(batch * m.length * m.length).fill(0.5);
  const t0 = performance.now();
  for (let l = 0; l < m.layers; l++) {
    for (let r = 0; r < 3; r++) {
      batchedMatMul(q, q, { batch, m: m.length, k: dh, n: m.length, transposeB: true });
      batchedMatMul(w, q, { batch, m: m.length, k: m.length, n: dh });
    }
  }
  return performance.now() - t0;
}

const samplerFor = (): Sampler => benchSampler(samplerName, threads, precision);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await initBackend('wasm', { log: () => {} });
const peak = peakGflops();
const macs = forwardMacs();
const flops = 3 * 2 * (macs.dense + macs.attention); // forward + backward ≈ 3 × forward
console.log(
  `${modelName}: ${m.layers} layer(s) × ${m.heads} head(s), d_model ${m.dModel}, batch ${m.batch}, T = ${m.length}`,
);
console.log(
  `matrix work ${(flops / 1e9).toFixed(3)} GFLOP/step; tfjs-wasm matmul peak here ${peak.toFixed(1)} GFLOP/s → roofline ≥ ${((1000 * flops) / (peak * 1e9)).toFixed(1)} ms/step on one core`,
);
const rng = createRng(1);
const tokens = (): Int32Array =>
  Int32Array.from({ length: m.batch * m.length }, () => floorScaledInt(rng, VOCAB));
for (const variant of variants) {
  const probe =
    variant === 'boltzmann' || variant === 'coupling' ? timedSampler(samplerFor()) : undefined;
  const config: TransformerConfig = {
    ...benchModelConfig(m, variant),
    ...(probe
      ? {
          sampler: probe.sampler,
          ...(samplerName === 'transfer-matrix' ? { couplingForm: 'banded:8' } : {}),
        }
      : {}),
  };
  const model = createTransformer(config);
  const trainer = createTrainer(model, { totalSteps: steps + 2 });
  const data = { inputs: tokens(), targets: tokens(), batchSize: m.batch };
  await trainer.step(data); // warm-up: kernel setup, first allocations
  probe?.take();
  const wall: number[] = [];
  let optimizer = 0;
  let ising = 0;
  for (let s = 0; s < steps; s++) {
    const t0 = performance.now();
    const r = await trainer.step(data);
    wall.push(performance.now() - t0);
    optimizer += r.timings.optimizerMs;
    ising += probe?.take() ?? 0;
  }
  const profile = await tf.profile(async () => {
    await trainer.step(data);
  });
  probe?.take();
  let matmulMs = 0;
  let otherMs = 0;
  for (const k of profile.kernels) {
    // Kernels nested in a custom gradient are listed inside it too: count leaf kernels only.
    if (k.name === 'unnamed scope') continue;
    if (k.name === 'BatchMatMul' || k.name === '_FusedMatMul') matmulMs += k.kernelTimeMs as number;
    else otherMs += k.kernelTimeMs as number;
  }
  const step = median(wall);
  const products = attentionProductMs();
  const parts = {
    'tfjs matmul': matmulMs,
    'other tfjs kernels': otherMs,
    'Ising sampler': ising / steps,
    'attention products': products,
    optimizer: optimizer / steps,
  };
  const rest = step - Object.values(parts).reduce((a, b) => a + b, 0);
  console.log(
    `\n${variant}${probe ? ` (${samplerName}${samplerName === 'transfer-matrix' && precision === 'float32' ? ' float32' : ''}, ${threads} thread${threads > 1 ? 's' : ''})` : ''}: ${(1000 / step).toFixed(1)} steps/s (median ${step.toFixed(1)} ms/step over ${steps}); 2,000 iterations ≈ ${((2000 * step) / 1000).toFixed(0)} s`,
  );
  console.log(
    `  achieved ${((flops / step) * 1e-6).toFixed(1)} GFLOP/s of matrix work = ${((100 * flops) / step / 1e6 / peak).toFixed(0)} % of the matmul peak; ${profile.kernels.length} tfjs kernels`,
  );
  for (const [name, ms] of [
    ...Object.entries(parts),
    ['JS, backend dispatch, copies (rest)', rest] as const,
  ]) {
    console.log(
      `  ${name.padEnd(36)} ${ms.toFixed(1).padStart(7)} ms  ${((100 * ms) / step).toFixed(0).padStart(3)} %`,
    );
  }
  trainer.dispose();
  model.dispose();
  await probe?.sampler.dispose?.(); // a sampler instance passed in stays ours to free (its worker threads)
}
