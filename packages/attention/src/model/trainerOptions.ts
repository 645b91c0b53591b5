// The trainer's options resolved and checked, its learning-rate schedule and the check of a saved
// state's moments: shared by the tfjs trainer (trainer.ts) and the engine's (engine/engineTrainer.ts).
import { AttentionError } from '../core/errors.js';
import type { TrainerOptions, TrainerState } from './trainerTypes.js';

/** The options with their defaults, each checked (ATTENTION_INVALID_ARGUMENT). */
export function resolveTrainerOptions(options: TrainerOptions): Required<TrainerOptions> {
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
export function learningRate(opts: Required<TrainerOptions>, step: number): number {
  const warm = opts.warmupSteps;
  if (warm > 0 && step < warm) return (opts.lr * (Math.max(step, 0) + 1)) / (warm + 1);
  // With no warm-up this is the plain cosine over totalSteps (the behaviour before warm-up existed).
  const progress =
    (Math.min(Math.max(step, warm), opts.totalSteps) - warm) / (opts.totalSteps - warm);
  const floor = opts.lr * opts.minLrFraction;
  return floor + (opts.lr - floor) * 0.5 * (1 + Math.cos(Math.PI * progress));
}

/**
 * A trainer's learning rate: {@link learningRate}'s schedule times a scale (default 1) that its
 * caller may change between steps, e.g. lower by 10× when validation stops improving.
 */
export interface LrSchedule {
  /** The rate at 0-based step `step`, the scale included. */
  at(step: number): number;
  /** The factor on the schedule; setting it checks it (a finite number > 0). */
  scale: number;
}

/** The schedule of `opts` with its scale at 1. */
export function lrSchedule(opts: Required<TrainerOptions>): LrSchedule {
  let scale = 1;
  return {
    at: (step) => learningRate(opts, step) * scale,
    get scale() {
      return scale;
    },
    set scale(value: number) {
      if (!(typeof value === 'number' && Number.isFinite(value) && value > 0))
        throw new AttentionError(
          'ATTENTION_INVALID_ARGUMENT',
          `lrScale must be a finite number > 0, got ${String(value)}`,
        );
      scale = value;
    },
  };
}

/** The scale a saved state carries (1 when it has none, as states before it), checked. */
export function savedLrScale(state: TrainerState): number {
  const saved: unknown = (state as { lrScale?: unknown } | undefined)?.lrScale;
  if (saved === undefined) return 1;
  if (typeof saved === 'number' && Number.isFinite(saved) && saved > 0) return saved;
  throw new AttentionError(
    'ATTENTION_INVALID_CHECKPOINT',
    `trainer state lrScale must be a finite number > 0, got ${String(saved)}`,
  );
}

/** The moments of a saved state for parameters of these names and sizes, checked (none applied yet). */
export function checkedMoments(
  slots: readonly { readonly name: string; readonly size: number }[],
  state: TrainerState,
): { m: Float64Array; v: Float64Array }[] {
  const bad = (message: string): AttentionError =>
    new AttentionError('ATTENTION_INVALID_CHECKPOINT', message);
  if (state?.format !== 'boltzmann-attention/trainer' || state.version !== 1)
    throw bad('not a version-1 trainer state');
  if (!Number.isInteger(state.step) || state.step < 0)
    throw bad(`trainer state step is ${String(state.step)}`);
  return slots.map((s) => {
    const entry = state.moments?.[s.name];
    const size = s.size;
    if (entry === undefined || entry.m?.length !== size || entry.v?.length !== size) {
      throw bad(`trainer state moments of "${s.name}" are missing or do not have ${size} values`);
    }
    if (![...entry.m, ...entry.v].every((x) => Number.isFinite(x)))
      throw bad(`trainer state moments of "${s.name}" are not finite`);
    return { m: Float64Array.from(entry.m), v: Float64Array.from(entry.v) };
  });
}
