// The engine's worker module: a worker_threads worker in Node, a module Web Worker in a browser.
// It builds the kernels on the shared arena, then runs its shard of every threaded pass the
// calling thread issues (forward and backward, into its own gradient buffer). The causal op runs
// here on the shard (with the sampler rebuilt from its recipe), or on the calling thread, met at
// the op's barriers (causalPlacement.ts); the user's sampler object itself is never called here.
import type { Sampler } from '@boltzmann/ising-core';
import { nodeBuiltin } from '@boltzmann/ising-core/internal';
import { parseCouplingForm } from '../../core/couplingForm.js';
import type { ParsedCouplingForm } from '../../core/couplingForm.js';
import { AttentionError } from '../../core/errors.js';
import type { ResolvedTransformerConfig } from '../../core/transformerConfigTypes.js';
import type { EngineMemory } from '../arena.js';
import { localExchange } from '../causalExchange.js';
import type { CausalExchange } from '../causalExchange.js';
import { createEngineKernels } from '../engineKernels.js';
import { planParams } from '../layout.js';
import { modelBackward, modelForward } from '../modelPass.js';
import type { PassContext } from '../passContext.js';
import type { EngineKernels } from '../engineKernels.js';
import type { OptimizerBuffers } from '../adamW.js';
import type { ActivationLayout, ParamLayout, ParamRun } from '../engineTypes.js';
import {
  ABORT,
  ADAMW,
  ARRIVED,
  BATCH,
  CALLER_GRADS,
  COMMAND,
  DONE,
  EXIT,
  FAILED,
  GRADS,
  LENGTH,
  RELEASED,
  SEQ,
  STEP,
  bump,
  readHyper,
  slot,
  waitFor,
  writeConvergence,
  writeMessage,
} from './control.js';
import type { Control } from './control.js';
import { shardConvergence, shardSampler } from './causalPlacement.js';
import type { CausalPlan } from './causalPlacement.js';
import type { KernelChoice } from './workerPool.js';
import { sumGradientRuns, threadRuns } from './optimizerTail.js';
import { optimizerBuffersOf, planShards } from './shards.js';
import type { ShardPlan } from './shards.js';

interface WorkerInit {
  readonly memory: EngineMemory;
  readonly control: Control;
  readonly config: ResolvedTransformerConfig;
  readonly worker: number;
  readonly threads: number;
  readonly causal: CausalPlan;
  /** The engine's backend and ISA: every thread runs the same kernels. */
  readonly backend: KernelChoice;
  readonly ready: Int32Array;
}

/** Node hands the start-up data as workerData; a Web Worker receives it as its first message. */
async function receiveInit(): Promise<WorkerInit> {
  const threads = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
  if (threads !== undefined) return threads.workerData as WorkerInit;
  const scope = globalThis as unknown as {
    addEventListener(type: 'message', listener: (e: { data: { init: WorkerInit } }) => void): void;
  };
  return new Promise((resolve) => scope.addEventListener('message', (e) => resolve(e.data.init)));
}

/** Throws when the calling thread stopped the pass. */
function abortCheck(ints: Int32Array): () => void {
  return () => {
    if (Atomics.load(ints, ABORT) !== 0) throw new Error('pass aborted by the calling thread');
  };
}

/** Arrive at a barrier, do the block's independent work while the op runs, then wait to be released (or aborted). */
function workerExchange(control: Control, w: number): CausalExchange {
  const { ints } = control;
  const barrier = (_layer: number, independent: () => void) => {
    const n = bump(ints, slot(w, ARRIVED));
    independent();
    waitFor(ints, slot(w, RELEASED), n, abortCheck(ints));
  };
  return { forward: async (layer, independent) => barrier(layer, independent), backward: barrier };
}

/** What a worker keeps from its start: its index, the shared words and its own kernels. */
interface WorkerState {
  readonly init: WorkerInit;
  readonly params: ParamLayout;
  readonly k: EngineKernels;
  readonly form: ParsedCouplingForm;
  readonly runs: readonly ParamRun[];
  readonly buffers: OptimizerBuffers;
  /** The sampler rebuilt on this thread (shards only), and whether its convergence goes back. */
  readonly sampler: Sampler | undefined;
  readonly record: boolean;
  readonly exchange: (acts: ActivationLayout) => CausalExchange;
}

/**
 * After the worker's shard (or none): marks its gradients complete, waits for every other
 * thread's, then adds shards 1… into the optimizer's buffer over its range, its Σ g² into its float.
 */
function sumGradients(state: WorkerState, plan: ShardPlan, seq: number): void {
  const { control, worker: w, threads } = state.init;
  const { ints } = control;
  Atomics.store(ints, slot(w, GRADS), seq);
  Atomics.notify(ints, slot(w, GRADS));
  waitFor(ints, CALLER_GRADS, seq, abortCheck(ints));
  for (let o = 1; o < threads; o++)
    if (o !== w) waitFor(ints, slot(o, GRADS), seq, abortCheck(ints));
  const others = plan.shards.slice(1).map((s) => s.gradBase);
  control.floats[w] = sumGradientRuns(state.k, state.runs, state.buffers.grads, others);
}

/** Runs the worker's shard of the pass numbered `seq`, then its part of the gradient sum. */
async function runPass(state: WorkerState, seq: number): Promise<void> {
  const { memory, control, config, worker: w, threads } = state.init;
  const { ints } = control;
  const { k, params } = state;
  const pass = { batch: Atomics.load(ints, BATCH), length: Atomics.load(ints, LENGTH), threads };
  const plan = planShards(config, params, pass);
  const floats = memory.buffer.byteLength >>> 2;
  if (plan.end > floats)
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `a pass of ${pass.batch} × ${pass.length} needs ${plan.end} floats; the arena has ${floats}`,
    );
  const shard = plan.shards[w];
  shardConvergence(state.sampler); // figures a failed pass left behind are not this pass's
  if (shard !== undefined) {
    const step = Atomics.load(ints, STEP);
    const ctx: PassContext = {
      k,
      config,
      form: state.form,
      params,
      batchStart: shard.start,
      paramBase: 0,
      gradBase: shard.gradBase,
      acts: shard.acts,
      step: step < 0 ? undefined : step,
      exchange: state.exchange(shard.acts),
    };
    k.f32().fill(0, shard.gradBase, shard.gradBase + params.size);
    await modelForward(ctx);
    modelBackward(ctx);
  }
  if (state.record) writeConvergence(control, w, shardConvergence(state.sampler));
  if (plan.shards.length > 1) sumGradients(state, plan, seq);
}

/** The worker's range of an AdamW update. */
function runAdamW(state: WorkerState): void {
  const hyper = readHyper(state.init.control);
  state.k.adamW(state.runs, state.buffers, hyper);
}

/** The worker's state from its start-up data: its kernels, parameters and causal op. */
function startState(init: WorkerInit): WorkerState {
  const { memory, control, config, worker: w, threads, causal, backend } = init;
  const params = planParams(config);
  const k = createEngineKernels(memory, { backend: backend.name, isa: backend.isa });
  const barriers = workerExchange(control, w);
  const sampler = shardSampler(causal);
  return {
    init,
    params,
    k,
    form: parseCouplingForm(config.couplingForm, config.maxLength),
    runs: threadRuns(params, threads)[w]!,
    buffers: optimizerBuffersOf(params),
    sampler,
    record: causal.placement === 'shards' && causal.record === true,
    exchange: (acts) =>
      causal.placement === 'shards'
        ? localExchange({ k, config, sampler, samplerTimeoutMs: 0 }, acts)
        : barriers,
  };
}

/**
 * Starts the worker, or fails its start at once with the reason in its message slot (an addon
 * that will not load here, a bad config): the calling thread reports it without waiting out the
 * start-up deadline.
 */
function started(init: WorkerInit): WorkerState | undefined {
  try {
    return startState(init);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const text = error instanceof Error ? error.message : String(error);
    writeMessage(init.control, init.worker, typeof code === 'string' ? `${code}: ${text}` : text);
    Atomics.store(init.ready, 0, -1);
    Atomics.notify(init.ready, 0);
    return undefined;
  }
}

async function main(): Promise<void> {
  const init = await receiveInit();
  const { control, worker: w, ready } = init;
  const { ints } = control;
  const state = started(init);
  if (state === undefined) return;
  // A worker that exits mid-pass (process.exit, a fatal error) fails its slot on the way out.
  (globalThis as { process?: { on?(e: 'exit', l: () => void): void } }).process?.on?.(
    'exit',
    () => {
      Atomics.store(ints, slot(w, FAILED), 1);
      bump(ints, slot(w, DONE));
    },
  );
  Atomics.store(ready, 0, 1);
  Atomics.notify(ready, 0);
  let seen = 0;
  for (;;) {
    waitFor(ints, SEQ, seen + 1, () => {}, 1000);
    seen = Atomics.load(ints, SEQ);
    const command = Atomics.load(ints, COMMAND);
    if (command === EXIT) return;
    try {
      if (command === ADAMW) runAdamW(state);
      else await runPass(state, seen);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const text = error instanceof Error ? error.message : String(error);
      writeMessage(control, w, typeof code === 'string' ? `${code}: ${text}` : text);
      Atomics.store(ints, slot(w, FAILED), 1);
    }
    bump(ints, slot(w, DONE));
  }
}

void main();
