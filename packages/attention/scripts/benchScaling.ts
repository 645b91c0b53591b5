/**
 * Both cores against one, side by side in one process: two engine trainers of the same model, one
 * on one thread and one on `--threads`, stepped in alternating windows. On a shared virtual
 * machine the step drifts from one second to the next (the paper model's two-thread step moved
 * between 3.4 and 4.5 ms within one process, the one-thread step between 6.5 and 8.5 ms), so
 * timing each in its own process, seconds apart, mostly measures the drift. Here each pair of
 * adjacent windows gives one ratio; the script prints their median and range, and one JSON line
 * per thread count (`--json`, the format of scripts/benchEngine.ts) for scripts/benchPeers.ts.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchScaling.ts \
 *     [--model paper|baby] [--variant softmax] [--threads 2] [--seconds 12] [--window-ms 500]
 *     [--backend auto|native|wasm] [--json]
 *
 * `--backend`: the engine's kernels, both trainers alike (default `auto`: native where the addon
 * loads, else wasm); the report prints each trainer's backend line.
 */
import { availableParallelism, loadavg } from 'node:os';
import { benchModelArg, benchModelConfig, randomBatches } from '../bench/benchModels.js';
import { backendArg } from '../bench/enginePeak.js';
import { median } from '../bench/peers/peerTable.js';
import { stepTimes, warmUp } from '../bench/stepWindows.js';
import {
  assertAttentionVariant,
  createEngineTrainer,
  createTransformer,
  engineModelOf,
  initBackend,
} from '../src/index.js';
import type { EngineTrainer } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

const args = parseScriptArgs(
  'benchScaling.ts [--backend VALUE] [--model VALUE] [--seconds VALUE] [--threads VALUE] [--variant VALUE] [--window-ms VALUE] [--json]',
  {
    backend: 'string',
    json: 'boolean',
    model: 'string',
    seconds: 'string',
    threads: 'string',
    variant: 'string',
    'window-ms': 'string',
  },
);

const { name: modelName, m } = benchModelArg();
const variant = scriptArg('variant', 'softmax');
assertAttentionVariant(variant);
if (variant === 'boltzmann' || variant === 'coupling')
  throw new Error(
    '--variant: softmax or sigmoid (a sampler has its own threads; see benchEngine.ts)',
  );
const threads = Number(scriptArg('threads', '2'));
const seconds = Number(scriptArg('seconds', '12'));
const windowMs = Number(scriptArg('window-ms', '500'));
const backend = backendArg();
for (const [name, value, least] of [
  ['threads', threads, 2],
  ['seconds', seconds, 1],
  ['window-ms', windowMs, 50],
] as const)
  if (!Number.isFinite(value) || value < least)
    throw new Error(`--${name} must be a number ≥ ${least}, got ${value}`);

const fresh = randomBatches(m);

await initBackend('wasm', { log: () => {} });
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (${availableParallelism()} cores)`,
);
const trainers: EngineTrainer[] = [1, threads].map((n) =>
  createEngineTrainer(engineModelOf(createTransformer(benchModelConfig(m, variant))), {
    totalSteps: 1_000_000,
    sync: 'manual',
    threads: n,
    backend,
  }),
);
for (const trainer of trainers) console.log(trainer.engine.backendLine);
for (const trainer of trainers) await warmUp(trainer, fresh);
const batch = fresh();
const pairs: { one: number; many: number }[] = [];
const start = performance.now();
while (pairs.length < 2 || performance.now() - start < seconds * 1000) {
  const one = median(await stepTimes(trainers[0]!, batch, 3, windowMs));
  const many = median(await stepTimes(trainers[1]!, batch, 3, windowMs));
  pairs.push({ one, many });
}
for (const trainer of trainers) trainer.dispose();

const ratios = pairs.map((p) => p.one / p.many);
const [one, many] = [median(pairs.map((p) => p.one)), median(pairs.map((p) => p.many))];
const fmt = (xs: number[], digits = 2) => xs.map((x) => x.toFixed(digits)).join(' ');
console.log(
  `${modelName} ${variant}, ${pairs.length} pairs of ${windowMs} ms windows, 1 thread then ${threads}:\n` +
    `1 thread, window medians (ms/step): ${fmt(pairs.map((p) => p.one))}\n` +
    `${threads} threads, window medians (ms/step): ${fmt(pairs.map((p) => p.many))}\n` +
    `ratio of each pair: ${fmt(ratios)}\n` +
    `${threads} threads against one: ${median(ratios).toFixed(2)}× (median of the pairs; range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); medians ${one.toFixed(2)} and ${many.toFixed(2)} ms/step`,
);
if (args.json === true)
  for (const [n, ms] of [
    [1, one],
    [threads, many],
  ] as const)
    console.log(
      JSON.stringify({
        model: modelName,
        variant,
        threads: n,
        msPerStep: ms,
        stepsPerSecond: 1000 / ms,
        pairRatio: median(ratios),
        backend: trainers[0]!.engine.backend.name,
        isa: trainers[0]!.engine.backend.isa,
      }),
    );
