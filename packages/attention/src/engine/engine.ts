/**
 * The engine: a model's parameters, gradients, AdamW moments and activations in one
 * WebAssembly arena, and its forward and backward passes over the fused kernels. No allocation
 * per step once a batch shape has been seen (its activations are planned once and the arena
 * grows to fit the largest). With `threads > 1` the arena is shared and each training pass is
 * split over the batch (parallel/), the causal op on every shard or on the calling thread
 * (parallel/causalPlacement.ts): the result equals one thread's up to float32 summation order,
 * and is the same from run to run for a given thread count.
 *
 * Arena: [parameters P][gradients P][moment m P][moment v P][gradients of threads 1… P each]
 * [activations].
 */
import { threadInfo } from '@boltzmann/ising-core';
import { parseCouplingForm } from '../core/couplingForm.js';
import { AttentionError } from '../core/errors.js';
import { DEFAULT_SAMPLER_TIMEOUT_MS } from '../model/samplerDeadline.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import { createArena } from './arena.js';
import { localExchange } from './causalExchange.js';
import type { CausalExchange } from './causalExchange.js';
import { createEngineKernels } from './engineKernels.js';
import type { EngineKernels } from './engineKernels.js';
import { planParams } from './layout.js';
import { lossArgs, modelBackward, modelForward } from './modelPass.js';
import { engineOptimizer } from './parallel/optimizerTail.js';
import type { Shard, ShardPlan } from './parallel/shards.js';
import { planShards } from './parallel/shards.js';
import {
  absorbShardConvergence,
  planCausalOp,
  shardConvergence,
  shardSampler,
} from './parallel/causalPlacement.js';
import { callingExchange, threadedPass } from './parallel/threadedPass.js';
import { engineThreadsUnsupported, startEngineWorkers } from './parallel/workerPool.js';
import type { EngineWorkers } from './parallel/workerPool.js';
import type { Engine, EngineOptions, EnginePass } from './engineApi.js';
import type { PassContext } from './passContext.js';
import { describeEngineBackend } from './native/engineBackend.js';

const PAGE_FLOATS = 16384;

function checkedThreads(threads: number | undefined): number {
  const n = threads ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `threads must be an integer in [1, 64], got ${String(threads)}`,
    );
  // Surplus threads slow every barrier and may not start in time (64 on 2 cores: 60 s, then a failure).
  const { cores } = threadInfo();
  if (n > cores)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `threads: ${n} is more than the ${cores} cores available here; use at most ${cores}`,
    );
  if (n > 1) {
    const reason = engineThreadsUnsupported();
    if (reason !== undefined) throw new AttentionError('ATTENTION_THREADS_UNAVAILABLE', reason);
  }
  return n;
}

/** Writes a shard's tokens (checked) and zeros where the FFN bias of a bias-free model is read. */
function writeTokens(
  kernels: EngineKernels,
  config: ResolvedTransformerConfig,
  shard: Shard,
  pass: EnginePass,
): void {
  const { acts, start, count } = shard;
  const t = acts.length;
  const tokens = new Int32Array(kernels.memory.buffer, 4 * acts.tokens, count * t);
  for (let i = 0; i < count * t; i++) {
    const token = pass.inputs[start * t + i]!;
    if (!(Number.isInteger(token) && token >= 0 && token < config.vocabSize))
      throw new AttentionError(
        'ATTENTION_INVALID_TOKEN',
        `engine: inputs[${start * t + i}] is ${String(token)}; tokens are integers in [0, ${config.vocabSize})`,
      );
    tokens[i] = token;
  }
  // Another shape's pass may have written where this one's zeros lie.
  if (acts.zeros >= 0) kernels.f32().fill(0, acts.zeros, acts.zeros + config.ffnHidden);
}

/**
 * Writes every shard's tokens and targets, and zeroes the calling thread's gradient buffer (each
 * worker zeroes its own at the start of the pass).
 */
function writePass(
  kernels: EngineKernels,
  config: ResolvedTransformerConfig,
  shards: readonly Shard[],
  pass: EnginePass,
  { targets, mask }: { readonly targets: Int32Array; readonly mask: Float32Array },
  gradFloats: number,
): void {
  const total = mask.reduce((a, b) => a + b, 0);
  for (const shard of shards) {
    writeTokens(kernels, config, shard, pass);
    const args = lossArgs({ acts: shard.acts, config });
    kernels.writeTargets(args, targets, mask, shard.start * shard.acts.length, total);
  }
  const grads = shards[0]!.gradBase;
  kernels.f32().fill(0, grads, grads + gradFloats);
}

/** The shards of a pass of `threads` threads, the arena grown to hold them. */
function planPass(
  engine: Pick<Engine, 'config' | 'params' | 'kernels' | 'threads'>,
  pass: EnginePass,
  threads: number,
): ShardPlan {
  const { config, params, kernels } = engine;
  const length = pass.inputs.length / pass.batchSize;
  if (!Number.isInteger(length) || length < 1 || length > config.maxLength)
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `engine: ${pass.inputs.length} tokens do not make ${pass.batchSize} sequences of length 1..${config.maxLength}`,
    );
  const shape = { batch: pass.batchSize, length, threads };
  const out = planShards(config, params, shape, engine.threads);
  const floats = kernels.memory.buffer.byteLength >>> 2;
  if (out.end > floats) kernels.memory.grow(Math.ceil((out.end - floats) / PAGE_FLOATS));
  return out;
}

/**
 * The shards of a pass, planned once per batch shape and thread count (the arena only grows, so a
 * plan stays valid); at most 64 shapes are kept (an evaluation's last batch, …).
 */
function plannerOf(
  engine: Pick<Engine, 'config' | 'params' | 'kernels' | 'threads'>,
): (pass: EnginePass, threads: number) => ShardPlan {
  const plans = new Map<string, ShardPlan>();
  return (pass, threads) => {
    const key = `${pass.batchSize} ${pass.inputs.length} ${threads}`;
    const known = plans.get(key);
    if (known !== undefined) return known;
    const planned = planPass(engine, pass, threads);
    if (plans.size >= 64) plans.clear();
    plans.set(key, planned);
    return planned;
  };
}

/**
 * Creates the engine for a resolved configuration; its parameters start at zero (load them).
 *
 * @category Engine
 */
export function createEngine(
  config: ResolvedTransformerConfig,
  options: EngineOptions = {},
): Engine {
  const threads = checkedThreads(options.threads);
  const params = planParams(config);
  const form = parseCouplingForm(config.couplingForm, config.maxLength);
  const p = params.size;
  const memory = createArena((3 + threads) * p + PAGE_FLOATS, { shared: threads > 1 });
  const kernels = createEngineKernels(memory, { backend: options.backend });
  const backend = kernels.backend;
  const optimizer = engineOptimizer(kernels, params, threads);
  const { buffers } = optimizer;
  const source = {
    k: kernels,
    config,
    sampler: options.sampler,
    samplerTimeoutMs: options.samplerTimeoutMs ?? DEFAULT_SAMPLER_TIMEOUT_MS,
  };
  let workers: EngineWorkers | undefined;
  let starting: Promise<EngineWorkers> | undefined;
  const plan = plannerOf({ config, params, kernels, threads });
  const causal = planCausalOp(config.variant, options.sampler);
  // With threads, the calling thread's own copy of a sampler its shards rebuild.
  const causalOp = { ...causal, sampler: threads > 1 ? shardSampler(causal) : undefined };
  const context = (shard: Shard, pass: EnginePass, exchange: CausalExchange): PassContext => ({
    k: kernels,
    config,
    form,
    params,
    batchStart: shard.start,
    paramBase: buffers.params,
    gradBase: shard.gradBase,
    acts: shard.acts,
    step: pass.step,
    exchange,
  });
  return {
    config,
    params,
    kernels,
    threads,
    backend,
    backendLine: describeEngineBackend(backend, threads),
    causalPlacement: causal.placement,
    buffers,
    f32: () => kernels.f32(),
    view(name, which = 'params') {
      const slot = params.slot(name);
      if (slot === undefined)
        throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `engine: no parameter "${name}"`);
      const at = (which === 'grads' ? buffers.grads : buffers.params) + slot.offset;
      return kernels.f32().subarray(at, at + slot.size);
    },
    async logits(pass) {
      const shard = plan(pass, 1).shards[0]!;
      writeTokens(kernels, config, shard, pass);
      await modelForward(context(shard, pass, localExchange(source, shard.acts)));
      const { logits, batch, length } = shard.acts;
      return kernels.f32().subarray(logits, logits + batch * length * config.outputSize);
    },
    async lossAndGradients(pass, targets, mask) {
      if (threads > 1 && workers === undefined) {
        starting ??= startEngineWorkers(memory, config, threads, causal, backend);
        workers = await starting;
      }
      const { shards } = plan(pass, threads);
      optimizer.passed(undefined);
      writePass(kernels, config, shards, pass, { targets, mask }, p);
      if (shards.length === 1) {
        const ctx = context(shards[0]!, pass, localExchange(source, shards[0]!.acts));
        await modelForward(ctx);
        modelBackward(ctx);
      } else {
        const shardPlan = { shards, end: 0 };
        const exchange = callingExchange(source, shardPlan, workers!, causalOp);
        const ctx = context(shards[0]!, pass, exchange);
        shardConvergence(causalOp.sampler); // figures a failed pass left behind are not this pass's
        optimizer.passed(await threadedPass(workers!, shardPlan, pass, ctx, optimizer.own));
        if (causal.placement === 'shards')
          absorbShardConvergence(options.sampler, causalOp.sampler, workers!);
      }
      let loss = 0;
      for (const shard of shards) loss += kernels.loss(lossArgs({ acts: shard.acts, config }));
      return loss;
    },
    gradientNorm: () => optimizer.gradientNorm(),
    adamW: (hyper) => optimizer.adamW(workers, hyper),
    async dispose() {
      const running = starting;
      [workers, starting] = [undefined, undefined];
      await (await running?.catch(() => undefined))?.dispose();
    },
  };
}
