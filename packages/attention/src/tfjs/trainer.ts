// AdamW with cosine decay and global-norm clipping over a Transformer's parameters (types in model/trainerTypes.ts).
import * as tf from '@tensorflow/tfjs';
import { withDeferredOpErrors } from './causalAttentionWeights.js';
import { adamWUpdate, clipScale, globalNorm } from '../model/adamW.js';
import { serialSteps } from '../model/serialSteps.js';
import { checkBatch } from '../model/tokenBatch.js';
import type { TokenBatch } from '../model/tokenBatch.js';
import { readEach, readsSynchronously } from './tensorData.js';
import { maskedCrossEntropy } from './loss.js';
import type { Transformer } from './modelTypes.js';
import {
  checkedMoments,
  lrSchedule,
  resolveTrainerOptions,
  savedLrScale,
} from '../model/trainerOptions.js';
import type { Trainer, TrainerOptions, TrainStepResult } from '../model/trainerTypes.js';

export type {
  Trainer,
  TrainerOptions,
  TrainerState,
  TrainStepResult,
} from '../model/trainerTypes.js';

const sizeOfSlot = (s: Slot) => ({ name: s.name, size: s.variable.size });

/** One parameter with its AdamW moments. */
interface Slot {
  name: string;
  variable: tf.Variable;
  decay: boolean;
  m: Float64Array;
  v: Float64Array;
}

/**
 * Reads the gradients and weights, clips the gradients by their global norm and applies AdamW
 * (update `t`, rate `lr`) to every parameter that has one, writing the weights back. Returns the
 * gradients' global norm.
 */
async function applyAdamW(
  slots: readonly Slot[],
  grads: tf.NamedTensorMap,
  opts: Required<TrainerOptions>,
  lr: number,
  t: number,
): Promise<number> {
  const owned = slots.filter((s) => grads[s.variable.name] !== undefined);
  const g = await readEach(owned.map((s) => grads[s.variable.name]!));
  const weights = await readEach(owned.map((s) => s.variable));
  const gradNorm = globalNorm(g);
  const gradScale = clipScale(gradNorm, opts.clipNorm);
  const hyper = {
    lr,
    beta1: opts.beta1,
    beta2: opts.beta2,
    epsilon: opts.epsilon,
    step: t,
    gradScale,
  };
  owned.forEach((s, i) => {
    const p = Float32Array.from(weights[i]!);
    adamWUpdate(p, g[i]!, s.m, s.v, { ...hyper, weightDecay: s.decay ? opts.weightDecay : 0 });
    tf.tidy(() => s.variable.assign(tf.tensor(p, s.variable.shape)));
  });
  return gradNorm;
}

/**
 * Creates an AdamW trainer (decoupled weight decay, cosine learning-rate decay to
 * `minLrFraction × lr`, global-norm gradient clipping) for `model`.
 *
 * With a synchronous sampler (exact, transfer-matrix, tap, mean-field, …) a step is one pass:
 * the causal op calls the sampler inside `tf.variableGrads`, and its gradient is the estimate's
 * VJP. With an asynchronous (remote) sampler (`capabilities.async`), or on a backend without
 * synchronous reads (webgpu), `model.prepare` first computes the attention fields and awaits the
 * estimates, then the tape recomputes the forward pass with them captured; the loss, gradients
 * and weights are then read asynchronously for the AdamW update.
 *
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT for bad options; the step throws the batch errors
 *   (ATTENTION_SHAPE_MISMATCH, ATTENTION_INVALID_TOKEN, ATTENTION_EMPTY_MASK) and sampler errors.
 * @example
 * import { createTrainer, createTransformer, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const trainer = createTrainer(model, { totalSteps: 10 });
 * const inputs = Int32Array.of(1, 2, 3, 4, 4, 3, 2, 1);
 * const targets = Int32Array.of(2, 3, 4, 5, 3, 2, 1, 0);
 * const { loss } = await trainer.step({ inputs, targets, batchSize: 2 });
 * console.log(loss);
 * model.dispose();
 * @category Training
 */
export function createTrainer(model: Transformer, options: TrainerOptions): Trainer {
  const opts = resolveTrainerOptions(options);
  const slots: Slot[] = model.parameters.map((p) => ({
    ...p,
    m: new Float64Array(p.variable.size),
    v: new Float64Array(p.variable.size),
  }));
  let steps = 0;
  const schedule = lrSchedule(opts);
  const lrAt = schedule.at;

  const runStep = async (batch: TokenBatch): Promise<TrainStepResult> => {
    const { batchSize, mask, targets } = checkBatch(model.config, batch);
    // Dropout (if the model has any) is active in training steps only, with masks of this step.
    const pass = { dropoutStep: steps };
    // Phase 1 only for an asynchronous sampler, which must be awaited before the synchronous
    // tape, or on a backend without synchronous reads (webgpu); a synchronous one is called
    // inside the tape, so the fields are computed once.
    const t0 = performance.now();
    const prepared =
      model.sampler?.capabilities.async === true || !readsSynchronously()
        ? await model.prepare(batch.inputs, batchSize, pass)
        : undefined;
    const t1 = performance.now();
    const lr = lrAt(steps);
    const t = steps + 1;
    // A sampler's failure inside the tape is rethrown after it, so that nothing leaks.
    const { value, grads } = withDeferredOpErrors(() =>
      tf.variableGrads(
        () =>
          maskedCrossEntropy(model.logits(batch.inputs, batchSize, prepared, pass), targets, mask),
        slots.map((s) => s.variable),
      ),
    );
    let loss: number;
    let gradNorm: number;
    let t2 = 0;
    try {
      loss = (await readEach([value]))[0]![0]!;
      t2 = performance.now();
      gradNorm = await applyAdamW(slots, grads, opts, lr, t);
    } finally {
      tf.dispose([value, ...Object.values(grads)]);
    }
    steps = t;
    const timings = { prepareMs: t1 - t0, tapeMs: t2 - t1, optimizerMs: performance.now() - t2 };
    return { loss, gradNorm, lr, step: steps, timings };
  };

  return {
    options: opts,
    get stepCount() {
      return steps;
    },
    lrAt,
    get lrScale() {
      return schedule.scale;
    },
    set lrScale(scale: number) {
      schedule.scale = scale;
    },
    step: serialSteps(runStep),
    state() {
      const moments: Record<string, { m: number[]; v: number[] }> = {};
      for (const s of slots) moments[s.name] = { m: Array.from(s.m), v: Array.from(s.v) };
      const scale = schedule.scale === 1 ? {} : { lrScale: schedule.scale };
      return { format: 'boltzmann-attention/trainer', version: 1, step: steps, ...scale, moments };
    },
    restore(state) {
      const checked = checkedMoments(slots.map(sizeOfSlot), state);
      const lrScale = savedLrScale(state);
      for (const [i, { m, v }] of checked.entries()) {
        const s = slots[i]!;
        s.m.set(m);
        s.v.set(v);
      }
      steps = state.step;
      schedule.scale = lrScale;
    },
    dispose() {
      for (const s of slots) {
        s.m = new Float64Array(0);
        s.v = new Float64Array(0);
      }
    },
  };
}
