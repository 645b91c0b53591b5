// The conformance checks of what a sampler answers: its magnetizations (one spin, two spins, a
// random batch, their range) and its VJP (shape and accuracy).
import { createIsingBatch } from '../batch.js';
import type { AnySamplerPlugin } from '../types.js';
import { bruteForceEstimate } from './bruteForce.js';
import { RANDOM_SHAPE, twoSpinExact, upstreamGradient } from './conformanceBatch.js';
import type { Settings } from './conformanceOptions.js';
import { ensure, ensureSame } from './conformanceAssert.js';
import { expectUsedClose, fits, randomBatch, run } from './conformanceRun.js';

/** 'single-spin': a lone spin in field ±4 has magnetization ±tanh 4 (or at least its field's sign). */
export async function checkSingleSpin(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  const batch = createIsingBatch({
    fields: Float64Array.of(4, -4),
    couplings: new Float64Array(1),
    spins: [1, 1],
    stride: 1,
  });
  const { magnetization } = await run(plugin, s, batch);
  if (s.exactReference)
    expectUsedClose(
      batch,
      magnetization,
      Float64Array.of(Math.tanh(4), -Math.tanh(4)),
      s.magnetization,
      'magnetization',
    );
  else
    ensure(
      magnetization[0]! > 0 && magnetization[1]! < 0,
      `each spin follows the sign of its field: got ${magnetization[0]}, ${magnetization[1]}`,
    );
}

/** 'two-spin': the exact magnetizations of a coupled pair (or values in [-1, 1]). */
export async function checkTwoSpin(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, 2))) return;
  const batch = createIsingBatch({
    fields: Float64Array.of(0.3, -0.1),
    couplings: Float64Array.of(0, 0.8, 0, 0),
    spins: [2],
    stride: 2,
  });
  const { magnetization } = await run(plugin, s, batch);
  if (s.exactReference)
    expectUsedClose(
      batch,
      magnetization,
      Float64Array.from(twoSpinExact()),
      s.magnetization,
      'magnetization',
    );
  else
    for (const v of magnetization.subarray(0, 2))
      ensure(Number.isFinite(v) && Math.abs(v) <= 1 + 1e-12, `magnetization ${v} in [-1, 1]`);
}

/** 'random-batch': the random batch's magnetizations against brute force. */
export async function checkRandomBatch(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, RANDOM_SHAPE.length)) || !s.exactReference) return;
  const batch = randomBatch(s);
  const { magnetization } = await run(plugin, s, batch);
  expectUsedClose(
    batch,
    magnetization,
    bruteForceEstimate(batch).magnetization,
    s.magnetization,
    'magnetization',
  );
}

/** 'range': every used magnetization is finite in [-1, 1], every padding entry 0. */
export async function checkRange(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, RANDOM_SHAPE.length))) return;
  const batch = randomBatch(s);
  const { magnetization } = await run(plugin, s, batch);
  ensureSame(magnetization.length, batch.size * batch.stride, 'magnetization length');
  magnetization.forEach((v, i) => {
    const used = i % batch.stride < batch.spins[Math.floor(i / batch.stride)]!;
    if (!used) ensureSame(v, 0, `magnetization[${i}] beyond the problem`);
    else
      ensure(
        Number.isFinite(v) && Math.abs(v) <= 1 + 1e-12,
        `magnetization[${i}] = ${v} in [-1, 1]`,
      );
  });
}

/** 'vjp-accuracy': ∂L/∂h and the upper triangle of ∂L/∂J against brute force. */
export async function checkVjpAccuracy(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, RANDOM_SHAPE.length)) || !s.exactReference) return;
  const batch = randomBatch(s);
  const grad = upstreamGradient(batch, s.seed);
  const { fields, couplings } = (await run(plugin, s, batch)).vjp(grad);
  const { stride } = batch;
  const want = bruteForceEstimate(batch).vjp(grad);
  expectUsedClose(batch, fields, want.fields, s.gradient, '∂L/∂h');
  for (let k = 0; k < stride; k++) {
    for (let l = k + 1; l < stride; l++) {
      const got = couplings[k * stride + l]!;
      const exact = want.couplings[k * stride + l]!;
      ensure(
        Math.abs(got - exact) <= s.gradient,
        `∂L/∂J[${k},${l}]: got ${got}, exact ${exact} (tolerance ${s.gradient})`,
      );
    }
  }
}

/** 'vjp-shape': float64 gradients of the batch's shape, finite where used and 0 elsewhere. */
export async function checkVjpShape(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, RANDOM_SHAPE.length))) return;
  const batch = randomBatch(s);
  const grad = upstreamGradient(batch, s.seed);
  const { fields, couplings } = (await run(plugin, s, batch)).vjp(grad);
  const { stride } = batch;
  ensure(fields instanceof Float64Array, '∂L/∂h is a Float64Array');
  ensure(couplings instanceof Float64Array, '∂L/∂J is a Float64Array');
  ensureSame(fields.length, batch.size * stride, '∂L/∂h length');
  ensureSame(couplings.length, stride * stride, '∂L/∂J length');
  fields.forEach((v, i) => {
    const used = i % stride < batch.spins[Math.floor(i / stride)]!;
    if (used) ensure(Number.isFinite(v), `∂L/∂h[${i}] = ${v} finite`);
    else ensureSame(v, 0, `∂L/∂h[${i}] beyond the problem`);
  });
  couplings.forEach((v, i) => {
    if (Math.floor(i / stride) >= i % stride)
      ensureSame(v, 0, `∂L/∂J[${Math.floor(i / stride)},${i % stride}] on or below the diagonal`);
    else ensure(Number.isFinite(v), `∂L/∂J entry ${i} = ${v} finite`);
  });
}
