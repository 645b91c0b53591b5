// AdamW with cosine decay and global-norm clipping over a Transformer's parameters (types in trainerTypes.ts).
import * as tf from '@tensorflow/tfjs';
import { withDeferredOpErrors } from './causalAttentionWeights.js';
import { AttentionError } from './errors.js';
import { adamWUpdate, clipScale, globalNorm } from './internal/adamW.js';
import { checkBatch } from './internal/inputs.js';
import { maskedCrossEntropy } from './loss.js';
import type { TokenBatch, Transformer } from './modelTypes.js';
import type { Trainer, TrainerOptions, TrainerState, TrainStepResult } from './trainerTypes.js';

export type { Trainer, TrainerOptions, TrainerState, TrainStepResult } from './trainerTypes.js';

/** One parameter with its AdamW moments. */
interface Slot {
  name: string;
  variable: tf.Variable;
  decay: boolean;
  m: Float64Array;
  v: Float64Array;
}

function resolveOptions(options: TrainerOptions): Required<TrainerOptions> {
  const o = {
    totalSteps: options.totalSteps,
    warmupSteps: options.warmupSteps ?? 0,
    lr: options.lr ?? 3e-3,
    minLrFraction: options.minLrFraction ?? 0.1,
    weightDecay: options.weightDecay ?? 0.01,
    clipNorm: options.clipNorm ?? 1,
    beta1: options.beta1 ?? 0.9,
    beta2: options.beta2 ?? 0.999,
    epsilon: options.epsilon ?? 1e-8,
  };
  const bad = (name: string, ok: boolean): void => {
    if (!ok)
      throw new AttentionError(
        'ATTENTION_INVALID_ARGUMENT',
        `trainer option ${name} is invalid: ${String(o[name as keyof typeof o])}`,
      );
  };
  bad('totalSteps', Number.isInteger(o.totalSteps) && o.totalSteps >= 1);
  bad(
    'warmupSteps',
    Number.isInteger(o.warmupSteps) && o.warmupSteps >= 0 && o.warmupSteps < o.totalSteps,
  );
  bad('lr', Number.isFinite(o.lr) && o.lr > 0);
  bad('minLrFraction', o.minLrFraction >= 0 && o.minLrFraction <= 1);
  bad('weightDecay', Number.isFinite(o.weightDecay) && o.weightDecay >= 0);
  bad('clipNorm', o.clipNorm >= 0);
  bad('beta1', o.beta1 >= 0 && o.beta1 < 1);
  bad('beta2', o.beta2 >= 0 && o.beta2 < 1);
  bad('epsilon', Number.isFinite(o.epsilon) && o.epsilon > 0);
  return o;
}

/** The learning rate at 0-based step `step`: linear warm-up, then the cosine down to its floor. */
function learningRate(opts: Required<TrainerOptions>, step: number): number {
  const warm = opts.warmupSteps;
  if (warm > 0 && step < warm) return (opts.lr * (Math.max(step, 0) + 1)) / (warm + 1);
  // With no warm-up this is the plain cosine over totalSteps (the behaviour before warm-up existed).
  const progress =
    (Math.min(Math.max(step, warm), opts.totalSteps) - warm) / (opts.totalSteps - warm);
  const floor = opts.lr * opts.minLrFraction;
  return floor + (opts.lr - floor) * 0.5 * (1 + Math.cos(Math.PI * progress));
}

/**
 * Reads the gradients, clips them by their global norm and applies AdamW (update `t`, rate `lr`)
 * to every parameter that has one, writing the weights back. Returns the gradients' global norm.
 */
function applyAdamW(
  slots: readonly Slot[],
  grads: tf.NamedTensorMap,
  opts: Required<TrainerOptions>,
  lr: number,
  t: number,
): number {
  const present = slots.flatMap((s) => {
    const grad = grads[s.variable.name];
    return grad === undefined ? [] : [{ s, g: grad.dataSync() as Float32Array }];
  });
  const gradNorm = globalNorm(present.map((x) => x.g));
  const gradScale = clipScale(gradNorm, opts.clipNorm);
  const hyper = {
    lr,
    beta1: opts.beta1,
    beta2: opts.beta2,
    epsilon: opts.epsilon,
    step: t,
    gradScale,
  };
  for (const { s, g } of present) {
    const p = Float32Array.from(s.variable.dataSync() as Float32Array);
    adamWUpdate(p, g, s.m, s.v, { ...hyper, weightDecay: s.decay ? opts.weightDecay : 0 });
    tf.tidy(() => s.variable.assign(tf.tensor(p, s.variable.shape)));
  }
  return gradNorm;
}

/** The moments of a saved state for every slot, checked against the slots (none is applied yet). */
function checkedMoments(
  slots: readonly Slot[],
  state: TrainerState,
): { s: Slot; m: Float64Array; v: Float64Array }[] {
  const bad = (message: string): AttentionError =>
    new AttentionError('ATTENTION_INVALID_CHECKPOINT', message);
  if (state?.format !== 'boltzmann-attention/trainer' || state.version !== 1)
    throw bad('not a version-1 trainer state');
  if (!Number.isInteger(state.step) || state.step < 0)
    throw bad(`trainer state step is ${String(state.step)}`);
  return slots.map((s) => {
    const entry = state.moments?.[s.name];
    const size = s.variable.size;
    if (entry === undefined || entry.m?.length !== size || entry.v?.length !== size) {
      throw bad(`trainer state moments of "${s.name}" are missing or do not have ${size} values`);
    }
    if (![...entry.m, ...entry.v].every((x) => Number.isFinite(x)))
      throw bad(`trainer state moments of "${s.name}" are not finite`);
    return { s, m: Float64Array.from(entry.m), v: Float64Array.from(entry.v) };
  });
}

/**
 * Creates an AdamW trainer (decoupled weight decay, cosine learning-rate decay to
 * `minLrFraction × lr`, global-norm gradient clipping) for `model`.
 *
 * With a synchronous sampler (exact, transfer-matrix, tap, mean-field, …) a step is one pass:
 * the causal op calls the sampler inside `tf.variableGrads`, and its gradient is the estimate's
 * VJP. With an asynchronous (remote) sampler (`capabilities.async`), `model.prepare` first
 * computes the attention fields and awaits the estimates, then the tape recomputes the forward
 * pass with them captured.
 *
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT for bad options; the step throws the batch errors
 *   (ATTENTION_SHAPE_MISMATCH, ATTENTION_INVALID_TOKEN, ATTENTION_EMPTY_MASK) and sampler errors.
 * @example
 * const trainer = createTrainer(model, { totalSteps: 1000 });
 * const { loss } = await trainer.step({ inputs, targets, batchSize: 64 });
 */
export function createTrainer(model: Transformer, options: TrainerOptions): Trainer {
  const opts = resolveOptions(options);
  const slots: Slot[] = model.parameters.map((p) => ({
    ...p,
    m: new Float64Array(p.variable.size),
    v: new Float64Array(p.variable.size),
  }));
  let steps = 0;
  const lrAt = (step: number): number => learningRate(opts, step);

  let queue: Promise<unknown> = Promise.resolve();
  const runStep = async (batch: TokenBatch): Promise<TrainStepResult> => {
    const { batchSize, mask, targets } = checkBatch(model, batch);
    // Dropout (if the model has any) is active in training steps only, with masks of this step.
    const pass = { dropoutStep: steps };
    // Phase 1 only for an asynchronous sampler, which must be awaited before the synchronous
    // tape; a synchronous one is called inside the tape, so the fields are computed once.
    const t0 = performance.now();
    const prepared =
      model.sampler?.capabilities.async === true
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
      loss = value.dataSync()[0]!;
      t2 = performance.now();
      gradNorm = applyAdamW(slots, grads, opts, lr, t);
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
    step(batch) {
      // Steps run one after another even when called concurrently: a step's estimate must be
      // made from the weights its update starts from.
      const run = queue.then(() => runStep(batch));
      queue = run.catch(() => undefined);
      return run;
    },
    state() {
      const moments: Record<string, { m: number[]; v: number[] }> = {};
      for (const s of slots) moments[s.name] = { m: Array.from(s.m), v: Array.from(s.v) };
      return { format: 'boltzmann-attention/trainer', version: 1, step: steps, moments };
    },
    restore(state) {
      for (const { s, m, v } of checkedMoments(slots, state)) {
        s.m.set(m);
        s.v.set(v);
      }
      steps = state.step;
    },
    dispose() {
      for (const s of slots) {
        s.m = new Float64Array(0);
        s.v = new Float64Array(0);
      }
    },
  };
}
