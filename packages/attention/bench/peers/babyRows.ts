// GPT baby's rows of a scripts/benchPeers.ts round (bench/peers/peerRound.ts): the engine on all
// cores on each backend against nanoGPT in its fastest configuration (measured once, the same
// figure beside every backend), transfer-matrix against softmax, the whole-process rows, and the
// transfer-matrix roofline.
import { BENCH_MODELS } from '../benchModels.js';
import { concurrentBandwidth } from '../memoryBandwidth.js';
import { describeConfig, invalidOn } from './peerConfigs.js';
import { NATIVE_GOALS, backendGoal, engineHereName } from './peerBackends.js';
import type { PeerBackend } from './peerBackends.js';
import type { Peers, RoundOptions } from './peerTypes.js';
import type { BenchEngineFigure, PeerRow } from './peerTable.js';
import { transferRoofline } from './roofline.js';
import { runBenchEngine, runNanoGpt } from './runPeers.js';
import { wholeProcessRows } from './wholeProcess.js';

const time = (figures: readonly BenchEngineFigure[], variant: string) =>
  figures.find((f) => f.variant === variant)?.msPerStep;

/** GPT baby softmax and boltzmann transfer-matrix (banded:8) on all cores, on `backend`. */
function babyRun(o: RoundOptions, backend: PeerBackend, round: number) {
  const args = [
    '--model',
    'baby',
    '--variants',
    'softmax,boltzmann',
    '--sampler',
    'transfer-matrix',
  ];
  const rest = ['--threads', String(o.cores), '--steps', '20', '--backend', backend];
  const baby = runBenchEngine([...args, ...rest]);
  console.log(
    `\nround ${round}: scripts/benchEngine.ts ${[...args, ...rest].join(' ')}:\n${baby.report}\n`,
  );
  return { backend, isa: baby.figures[0]?.isa, figures: baby.figures };
}

/**
 * The transfer-matrix roofline, priced at the wasm roofs this round measured (both cores' f32x4
 * peak and memory bandwidth): for the wasm run only; none without one.
 */
async function babyRoofline(
  o: RoundOptions,
  runs: readonly ReturnType<typeof babyRun>[],
  peakGflops: number,
): Promise<string[]> {
  const wasm = runs.find((r) => r.backend === 'wasm');
  if (wasm === undefined) return [];
  const bandwidth = (await concurrentBandwidth(o.cores)).reduce((a, b) => a + b, 0);
  const shape = { ...BENCH_MODELS.baby, window: 8 };
  const softmaxMs = time(wasm.figures, 'softmax');
  const roofs = { peakGflops, bandwidth };
  return transferRoofline(shape, softmaxMs, roofs, time(wasm.figures, 'boltzmann'));
}

/** GPT baby on all cores, each row once per backend: softmax against nanoGPT, transfer-matrix against softmax. */
export async function babyRows(
  o: RoundOptions,
  peers: Peers,
  work: string,
  round: number,
  peakGflops: number,
) {
  const runs = o.backends.map((backend) => babyRun(o, backend, round));
  const config = peers.configs.nanoGpt;
  const ms = config && runNanoGpt(work, peers.python, o.nanoIters, config);
  if (typeof ms === 'string') console.log(ms);
  const rows: PeerRow[] = [
    ...runs.map((r) => ({
      workload: `GPT \`baby\` (4 L × 4 H × 128, block 64, batch 12), softmax, ${o.cores} cores`,
      unit: 'ms/iteration' as const,
      hereName: engineHereName(r.backend, r.isa, o.cores),
      here: time(r.figures, 'softmax'),
      peer: typeof ms === 'number' ? ms : undefined,
      peerName: `nanoGPT, ${config ? describeConfig(config, peers.blas) : 'no configuration ran'}, median of iterations 5–${o.nanoIters}`,
      invalid: invalidOn(peers.blas),
      ...backendGoal(r.backend, NATIVE_GOALS.babySoftmax),
    })),
    ...runs.map((r) => ({
      workload: 'GPT `baby` boltzmann transfer-matrix (banded:8) against its softmax',
      unit: 'ms/iteration' as const,
      hereName: engineHereName(r.backend, r.isa, o.cores),
      here: time(r.figures, 'boltzmann'),
      peer: time(r.figures, 'softmax'),
      peerName: 'the engine’s softmax on the same backend',
      ...backendGoal(r.backend, 1 / 1.5),
    })),
  ];
  const roofline = await babyRoofline(o, runs, peakGflops);
  if (o.wholeIters > 0) {
    const { python, blas } = peers;
    const engines = runs.map((r) => {
      const ms = time(r.figures, 'softmax');
      const engineStep = ms === undefined ? undefined : { threads: o.cores, ms };
      return { backend: r.backend, threads: o.engineThreads[r.backend], engineStep };
    });
    const { input, nativeIsa } = o;
    const whole = { iterations: o.wholeIters, engines, nativeIsa, python, blas, work, config };
    rows.push(...wholeProcessRows({ ...whole, input }));
  }
  return { rows, roofline };
}
