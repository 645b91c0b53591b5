/**
 * The words the engine's threads coordinate through: a small SharedArrayBuffer of int32 words,
 * waited on and notified with Atomics, and one of float64 numbers. The calling thread issues a
 * command by bumping `SEQ`; each worker has its words: up (1) or failed to start (−1), how many
 * causal-op barriers it has reached, how many the calling thread has released, how many commands
 * it has finished, whether it failed, and the `SEQ` of the last pass whose gradients it has
 * complete (`GRADS`; the calling thread's own is `CALLER_GRADS`). A worker's error message goes
 * into its own byte slot; its part of the gradients' Σ g² into its float, the next AdamW update's
 * hyper-parameters into the floats from `HYPER`.
 */
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import type { EngineAdamW } from '../adamW.js';

/** Command words. */
export const SEQ = 0;
export const COMMAND = 1;
export const BATCH = 2;
export const LENGTH = 3;
/** The dropout step, −1 for none. */
export const STEP = 4;
/** Set to 1 by the calling thread to stop a pass whose other half failed. */
export const ABORT = 5;
/** The `SEQ` of the last pass whose calling-thread gradients are complete. */
export const CALLER_GRADS = 6;

/** Commands. */
export const PASS = 1;
export const EXIT = 2;
/** An AdamW update of every worker's range, its hyper-parameters in the floats from `HYPER`. */
export const ADAMW = 3;

/** Per-worker words (worker w = 1, 2, …). */
export const READY = 0;
export const ARRIVED = 1;
export const RELEASED = 2;
export const DONE = 3;
export const FAILED = 4;
export const GRADS = 5;

const MAX_WORKERS = 64;
const WORKER_WORDS = 8;
const MESSAGE_BYTES = 1024;

/** Where in `floats` an AdamW update's hyper-parameters start (worker w's Σ g² is float w). */
const HYPER = MAX_WORKERS + 1;
/** The order of the hyper-parameters from `HYPER`. */
const HYPER_KEYS = ['lr', 'beta1', 'beta2', 'epsilon', 'weightDecay', 'step', 'gradScale'] as const;

/** The figures of a worker's recorded convergence, 6 floats per worker from `SUMMARY`. */
const SUMMARY_KEYS = [
  'calls',
  'problems',
  'missed',
  'maxResidual',
  'meanIterations',
  'maxIterations',
] as const;
const SUMMARY = HYPER + HYPER_KEYS.length;

/** The shared words, message slots and numbers. */
export interface Control {
  readonly ints: Int32Array;
  readonly messages: Uint8Array;
  readonly floats: Float64Array;
}

/** Fresh control words for up to 64 workers. */
export function createControl(): Control {
  const ints = new Int32Array(new SharedArrayBuffer(4 * WORKER_WORDS * (MAX_WORKERS + 1)));
  const messages = new Uint8Array(new SharedArrayBuffer(MESSAGE_BYTES * (MAX_WORKERS + 1)));
  const floatCount = SUMMARY + SUMMARY_KEYS.length * (MAX_WORKERS + 1);
  const floats = new Float64Array(new SharedArrayBuffer(8 * floatCount));
  return { ints, messages, floats };
}

/** Writes an AdamW update's hyper-parameters for the workers (before the command's `SEQ` bump). */
export function writeHyper(control: Control, hyper: EngineAdamW): void {
  for (const [i, key] of HYPER_KEYS.entries()) control.floats[HYPER + i] = hyper[key];
}

/** The hyper-parameters the calling thread wrote. */
export function readHyper(control: Control): EngineAdamW {
  const at = (i: number) => control.floats[HYPER + i]!;
  const [lr, beta1, beta2, epsilon, weightDecay, step, gradScale] = HYPER_KEYS.map((_, i) => at(i));
  return { lr, beta1, beta2, epsilon, weightDecay, step, gradScale } as EngineAdamW;
}

/** Writes worker `w`'s convergence figures of its last pass (`calls` 0: none). */
export function writeConvergence(
  control: Control,
  w: number,
  summary: ConvergenceSummary | undefined,
): void {
  const at = SUMMARY + SUMMARY_KEYS.length * w;
  for (const [i, key] of SUMMARY_KEYS.entries()) control.floats[at + i] = summary?.[key] ?? 0;
}

/** Worker `w`'s convergence figures of its last pass, or undefined when it recorded none. */
export function readConvergence(control: Control, w: number): ConvergenceSummary | undefined {
  const at = SUMMARY + SUMMARY_KEYS.length * w;
  const [calls, problems, missed, maxResidual, meanIterations, maxIterations] = SUMMARY_KEYS.map(
    (_, i) => control.floats[at + i]!,
  ) as [number, number, number, number, number, number];
  if (calls === 0) return undefined;
  return { calls, problems, missed, maxResidual, meanIterations, maxIterations };
}

/** The index of worker `w`'s word `word`. */
export const slot = (w: number, word: number): number => WORKER_WORDS * w + word;

/** Writes a worker's error message (truncated) into its slot. */
export function writeMessage(control: Control, w: number, text: string): void {
  const bytes = new TextEncoder().encode(text).subarray(0, MESSAGE_BYTES - 4);
  const at = MESSAGE_BYTES * w;
  new DataView(control.messages.buffer).setInt32(at, bytes.length, true);
  control.messages.set(bytes, at + 4);
}

/** A worker's error message. */
export function readMessage(control: Control, w: number): string {
  const at = MESSAGE_BYTES * w;
  const length = new DataView(control.messages.buffer).getInt32(at, true);
  // TextDecoder refuses views of shared memory: copy first.
  return new TextDecoder().decode(control.messages.slice(at + 4, at + 4 + length));
}

/** Bumps word `i` and wakes its waiters. */
export function bump(ints: Int32Array, i: number): number {
  const value = Atomics.add(ints, i, 1) + 1;
  Atomics.notify(ints, i);
  return value;
}

/**
 * How long a waiting thread spins before it sleeps, in ms. The other side's turn is usually
 * shorter (a step's serial part, a shard that finished later): a spinning thread sees it at once,
 * where one woken from `Atomics.wait` can take milliseconds on a virtual machine.
 */
export const SPIN_MS = 1;

/**
 * Blocks until word `i` reaches `target`: spins for up to `spinMs`, then sleeps, waking every
 * `sliceMs` to run `check` (which throws to give up: a failed worker, an abort, a deadline).
 */
export function waitFor(
  ints: Int32Array,
  i: number,
  target: number,
  check: () => void,
  sliceMs = 50,
  spinMs = SPIN_MS,
) {
  const until = performance.now() + spinMs;
  while (Atomics.load(ints, i) < target && performance.now() < until) {
    for (let spin = 0; spin < 64 && Atomics.load(ints, i) < target; spin++);
  }
  for (;;) {
    const value = Atomics.load(ints, i);
    if (value >= target) return;
    check();
    Atomics.wait(ints, i, value, sliceMs);
  }
}
