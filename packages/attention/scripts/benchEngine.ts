/**
 * Training speed of the two reference models on the engine (src/engine/), with the split of a
 * step by kernel against the roofline: each GEMM shape's achieved GFLOP/s beside the one-core
 * f32x4 peak measured in this run, and the time of every other kernel, the causal op (sampler,
 * its VJP) and the JavaScript between them.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchEngine.ts \
 *     [--model paper|paper-256|baby] [--variants softmax,boltzmann] [--sampler exact|tap|transfer-matrix]
 *     [--couplings full|banded:8] [--threads 1] [--steps 30] [--backend auto|native|wasm] [--json]
 *
 * `--backend` is the engine's kernels (default `auto`: native where the addon loads, else wasm);
 * the report prints the engine's backend line, and the split's roofline is that backend's own
 * peak (the native ISA's FMA peak, or the wasm f32x4 peak; bench/enginePeak.ts).
 * `--threads` is the engine's (the calling thread and threads − 1 workers) and the sampler's: on
 * one thread its own pool; on more, the built-in samplers run on every engine thread's shard
 * (the sampler's time is then not split out). The per-kernel split is taken on one thread (the
 * workers' kernels are not timed). `--json` adds one JSON line per
 * variant for scripts/benchPeers.ts. One training process: run it on an idle machine.
 */
import { availableParallelism, loadavg } from 'node:os';
import { shardRecipeOf } from '@boltzmann/ising-core/internal';
import {
  benchModelArg,
  benchModelConfig,
  benchSampler,
  randomBatches,
  timedSampler,
} from '../bench/benchModels.js';
import {
  createEngineTrainer,
  createTransformer,
  engineModelOf,
  initBackend,
} from '../src/index.js';
import type { AttentionVariant, CouplingForm, EngineTrainer } from '../src/index.js';
import { backendArg, enginePeak } from '../bench/enginePeak.js';
import { kernelSplit } from '../bench/kernelSplit.js';
import { concurrentPeaks } from '../bench/wasmPeak.js';
import { stepTimes, warmUp } from '../bench/stepWindows.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

const args = parseScriptArgs(
  'benchEngine.ts [--backend VALUE] [--couplings VALUE] [--model VALUE] [--sampler VALUE] [--steps VALUE] [--threads VALUE] [--variants VALUE] [--json]',
  {
    backend: 'string',
    couplings: 'string',
    json: 'boolean',
    model: 'string',
    sampler: 'string',
    steps: 'string',
    threads: 'string',
    variants: 'string',
  },
);

const { name: modelName, m } = benchModelArg();
const variants = scriptArg('variants', 'softmax,boltzmann').split(',') as AttentionVariant[];
const samplerName = scriptArg('sampler', modelName === 'paper' ? 'exact' : 'transfer-matrix');
const couplings = scriptArg('couplings', samplerName === 'transfer-matrix' ? 'banded:8' : 'full');
const threads = Number(scriptArg('threads', '1'));
const steps = Number(scriptArg('steps', '30'));
const backend = backendArg();
const json = args.json === true;
const log = (line: string) => console.log(line);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fresh = randomBatches(m);

await initBackend('wasm', { log: () => {} });
log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (${availableParallelism()} cores)`,
);
if (threads > 1) {
  const [single] = await concurrentPeaks(1);
  const many = await concurrentPeaks(threads);
  const sum = many.reduce((a, b) => a + b, 0);
  log(
    `f32x4 peak: ${single!.toFixed(1)} GFLOP/s on one core alone; ${threads} at once ${many.map((g) => g.toFixed(1)).join(' + ')} = ${sum.toFixed(1)} (${(sum / single!).toFixed(2)}× one core)`,
  );
}
log(
  `${modelName}: ${m.layers} layer(s) × ${m.heads} head(s), d_model ${m.dModel}, batch ${m.batch}, T = ${m.length}; engine threads ${threads}`,
);
for (const variant of variants) {
  const raw =
    variant === 'boltzmann' || variant === 'coupling'
      ? benchSampler(
          samplerName,
          threads,
          samplerName === 'transfer-matrix' ? 'float32' : 'float64',
        )
      : undefined;
  // On more than one thread a built-in sampler runs on every shard, rebuilt there, and the
  // float32 transfer matrix runs on the engine's own kernels, on either backend (timed in the split): a
  // timing wrapper would hide its recipe (and see the calling thread's shard only), so none is put on.
  const fusedTransfer = samplerName === 'transfer-matrix';
  const probe =
    raw === undefined || ((threads > 1 || fusedTransfer) && shardRecipeOf(raw) !== undefined)
      ? undefined
      : timedSampler(raw);
  const model = createTransformer({
    ...benchModelConfig(m, variant),
    ...(raw ? { sampler: probe?.sampler ?? raw, couplingForm: couplings as CouplingForm } : {}),
  });
  const trainer: EngineTrainer = createEngineTrainer(engineModelOf(model), {
    totalSteps: steps + 10,
    sync: 'manual',
    threads,
    backend,
  });
  log(trainer.engine.backendLine);
  await warmUp(trainer, fresh);
  const batch = fresh();
  probe?.take();
  const wall = await stepTimes(trainer, batch, steps);
  const ms = median(wall);
  const meanMs = wall.reduce((a, b) => a + b, 0) / wall.length;
  const samplerMs = (probe?.take() ?? 0) / steps;
  const name =
    variant === 'softmax' || variant === 'sigmoid'
      ? variant
      : `${variant} (${samplerName}, ${couplings})`;
  log(
    `\n${name}: ${ms.toFixed(2)} ms/step (median of ${steps}; mean ${meanMs.toFixed(2)}), ${(1000 / ms).toFixed(1)} steps/s`,
  );
  if (probe)
    log(
      `of which the sampler (estimate + VJP, ${threads} thread(s)): ${samplerMs.toFixed(1)} ms/step (mean)`,
    );
  else if (raw !== undefined && fusedTransfer)
    log(
      `the causal op runs on the engine's transfer-matrix kernels (${trainer.engine.causalPlacement}; timed in the split)`,
    );
  else if (raw !== undefined)
    log(`the causal op runs on each thread's shard (${trainer.engine.causalPlacement})`);
  // On one thread: the split by kernel against the backend's own peak, and the roofline's
  // figures in the JSON line.
  const { name: backendName, isa } = trainer.engine.backend;
  const peak = threads === 1 ? await enginePeak(trainer.engine.backend) : undefined;
  const split = peak && (await kernelSplit(trainer, batch, 10, peak.gflops));
  if (peak) log(`${peak.name} peak: ${peak.gflops.toFixed(1)} GFLOP/s (one core, measured now)`);
  if (split) log(split.table);
  if (json) {
    const { matrixGflop, gemmMs, otherMs, transferMs, transferGflop } = split ?? {};
    const figure = {
      model: modelName,
      variant,
      threads,
      msPerStep: ms,
      meanMsPerStep: meanMs,
      stepsPerSecond: 1000 / ms,
    };
    const roof = {
      matrixGflop,
      gemmMs,
      otherMs,
      ...(transferMs ? { transferMs, transferGflop } : {}),
      peakGflops: peak?.gflops,
      peakName: peak?.name,
    };
    console.log(JSON.stringify({ ...figure, backend: backendName, isa, ...roof }));
  }
  trainer.dispose();
  model.dispose();
}
log(
  `\nload average at end: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
