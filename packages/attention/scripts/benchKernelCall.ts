/**
 * What the engine's JS glue costs a native kernel call (engineBackend.ts's engineModuleExports:
 * a closure with rest arguments that checks `memory.buffer` for a grow, then the bound kernel),
 * against calling the bound kernel directly, and how many native kernel calls a GPT baby step
 * makes (every call counted through a wrapper on the addon's `bind`, one engine thread so the
 * calls are all on this one). The glue's cost a step is the difference times that count.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source \
 *     scripts/benchKernelCall.ts [--model baby] [--variants softmax,boltzmann] [--steps 10]
 *
 * The per-call figures are the best of 5 timings of ≥ 40 ms of 1000 calls each
 * (bench/wasmPeak.ts's `time`) of `add_into` on 4 floats, side by side in one process.
 */
import {
  benchModelArg,
  benchModelConfig,
  benchSampler,
  randomBatches,
} from '../bench/benchModels.js';
import { stepTimes, warmUp } from '../bench/stepWindows.js';
import { time } from '../bench/wasmPeak.js';
import { createArena } from '../src/engine/arena.js';
import { engineModuleExports, resolveEngineBackend } from '../src/engine/native/engineBackend.js';
import type { NativeKernels } from '../src/engine/native/nativeAddon.js';
import {
  createEngineTrainer,
  createTransformer,
  engineModelOf,
  initBackend,
} from '../src/index.js';
import type { AttentionVariant } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

parseScriptArgs('benchKernelCall.ts [--model VALUE] [--steps VALUE] [--variants VALUE]', {
  model: 'string',
  steps: 'string',
  variants: 'string',
});

type Kernel = (...args: number[]) => number | undefined;
const CALLS = 1000;

/** ns per call of add_into(0, 64, 4) through `kernel`. */
function nsPerCall(kernel: Kernel): number {
  return (
    (time(() => {
      for (let i = 0; i < CALLS; i++) kernel(0, 256, 4);
    }) *
      1e9) /
    CALLS
  );
}

const backend = resolveEngineBackend('native');
const addon = backend.addon!;
const memory = createArena(1 << 16);
const direct = addon.bind(new Uint8Array(memory.buffer), backend.info.isa).add_into as Kernel;
const glue = engineModuleExports(
  { names: ['add_into'], instantiate: () => ({}) },
  memory,
  'bench',
  backend,
) as Record<string, Kernel>;
const viaGlue = glue.add_into!;
const [ns, glueNs] = [[] as number[], [] as number[]];
for (let round = 0; round < 3; round++) {
  ns.push(nsPerCall(direct));
  glueNs.push(nsPerCall(viaGlue));
}
const [best, bestGlue] = [Math.min(...ns), Math.min(...glueNs)];
console.log(
  `${backend.info.isa} add_into(4 floats): direct ${best.toFixed(1)} ns/call, through the glue ${bestGlue.toFixed(1)} ns/call (rounds: ${ns.map((x) => x.toFixed(0)).join(' ')} | ${glueNs.map((x) => x.toFixed(0)).join(' ')})`,
);

// Every native call counted: the addon's bind returns kernels wrapped with a counter.
let calls = 0;
const bind = addon.bind.bind(addon);
addon.bind = (view, isa) => {
  const out: Record<string, Kernel> = {};
  for (const [name, fn] of Object.entries(bind(view, isa) as NativeKernels))
    out[name] = (...args) => {
      calls++;
      return fn(...args);
    };
  return out;
};

await initBackend('wasm', { log: () => {} });
const { name: modelName, m } = benchModelArg();
const steps = Number(scriptArg('steps', '10'));
for (const variant of scriptArg('variants', 'softmax,boltzmann').split(',') as AttentionVariant[]) {
  const raw = variant === 'boltzmann' ? benchSampler('transfer-matrix', 1, 'float32') : undefined;
  const model = createTransformer({
    ...benchModelConfig(m, variant),
    ...(raw ? { sampler: raw, couplingForm: 'banded:8' as const } : {}),
  });
  const trainer = createEngineTrainer(engineModelOf(model), {
    totalSteps: steps + 10,
    sync: 'manual',
    threads: 1,
    backend: 'native',
  });
  const fresh = randomBatches(m);
  await warmUp(trainer, fresh);
  calls = 0;
  const wall = await stepTimes(trainer, fresh(), steps);
  const perStep = calls / steps;
  const msStep = wall.reduce((a, b) => a + b, 0) / steps;
  const glueMs = (perStep * (bestGlue - best)) / 1e6;
  console.log(
    `${modelName} ${variant}: ${perStep.toFixed(0)} native calls a step (1 thread, ${msStep.toFixed(1)} ms/step here, mean of ${steps}); glue ${glueMs.toFixed(3)} ms a step`,
  );
  trainer.dispose();
  model.dispose();
}
