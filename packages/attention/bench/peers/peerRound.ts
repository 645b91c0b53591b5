// One round of scripts/benchPeers.ts: every row of the goals table measured once, one process
// after the other (the engine, the PyTorch twin, nanoGPT), with the roofline of the goals
// from the same round's figures. The script runs several rounds and combines them.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_MODELS } from '../benchModels.js';
import { concurrentBandwidth } from '../memoryBandwidth.js';
import { concurrentPeaks } from '../wasmPeak.js';
import { usesReferenceBlas } from './peerTable.js';
import type { BenchEngineFigure, PeerRow, TwinFigure } from './peerTable.js';
import { oneCoreRoofline, transferRoofline } from './roofline.js';
import {
  prepareNanoGpt,
  runBenchEngine,
  runBenchScaling,
  runNanoGpt,
  runTorchGemm,
  runTwin,
} from './runPeers.js';

/** What every round shares: the run's options and the Python that imports torch (if any). */
export interface RoundOptions {
  readonly steps: number;
  readonly cores: number;
  readonly python: string | undefined;
  /** nanoGPT's checkout and its iterations, for the baby rows (skipped without it). */
  readonly nanoGpt: string | undefined;
  readonly nanoIters: number;
  /** Tiny Shakespeare's input.txt, for nanoGPT's data. */
  readonly input: string;
}

/** A round's rows (the goals table) and the roofline lines of its figures. */
export interface PeerRound {
  readonly rows: PeerRow[];
  readonly roofline: string[];
  /** The twin's figures, for the tfjs rows printed once after the rounds. */
  readonly twins: { softmax?: TwinFigure | undefined; boltzmann?: TwinFigure | undefined };
}

const rate = (figures: BenchEngineFigure[], variant: string) =>
  figures.find((f) => f.variant === variant)?.stepsPerSecond;
const time = (figures: BenchEngineFigure[], variant: string) =>
  figures.find((f) => f.variant === variant)?.msPerStep;

/** The twin's figure on one thread, or undefined (with its error printed). */
function twinOf(python: string | undefined, variant: string, steps: number) {
  if (python === undefined) return undefined;
  const twin = runTwin(python, variant, steps, 1);
  if (typeof twin === 'string') {
    console.log(twin);
    return undefined;
  }
  if (usesReferenceBlas(twin))
    console.log(
      `warning: the twin runs on the reference BLAS (${twin.blas.join(', ')}), ~10× slower than OpenBLAS: apt-get install -y libopenblas0-pthread`,
    );
  return twin;
}

/** The machine row and the paper rows: one core against the twin, both cores against one. */
async function paperRows(o: RoundOptions, round: number) {
  const [onePeak] = await concurrentPeaks(1);
  const peaks = await concurrentPeaks(o.cores);
  const stepArgs = ['--steps', String(o.steps)];
  const one = runBenchEngine(['--model', 'paper', '--threads', '1', ...stepArgs]);
  console.log(
    `\nround ${round}: scripts/benchEngine.ts --model paper --threads 1 --steps ${o.steps}:\n${one.report}\n`,
  );
  // Both cores against one in alternating windows of one process, so that the machine's drift
  // falls on both alike (scripts/benchScaling.ts).
  const scalingArgs = ['--model', 'paper', '--variant', 'softmax', '--threads', String(o.cores)];
  const scaling = runBenchScaling(scalingArgs);
  console.log(
    `\nround ${round}: scripts/benchScaling.ts ${scalingArgs.join(' ')}:\n${scaling.report}\n`,
  );
  const byThreads = (n: number) => scaling.figures.find((f) => f.threads === n)?.stepsPerSecond;
  const twins = {
    softmax: twinOf(o.python, 'softmax', o.steps),
    boltzmann: twinOf(o.python, 'boltzmann', o.steps),
  };
  const gemm = o.python === undefined ? undefined : runTorchGemm(o.python, 1);
  if (typeof gemm === 'string') console.log(gemm);
  const softmax = one.figures.find((f) => f.variant === 'softmax');
  const roofline = oneCoreRoofline(softmax, twins, typeof gemm === 'string' ? undefined : gemm);
  const twin = 'PyTorch twin, 1 thread';
  const rows: PeerRow[] = [
    {
      workload: `this machine: wasm f32x4 peak, ${o.cores} cores at once against one (the ceiling of the ${o.cores}-core rows)`,
      unit: 'steps/s',
      hereName: 'GFLOP/s, summed',
      here: peaks.reduce((a, b) => a + b, 0),
      peer: onePeak,
      peerName: 'GFLOP/s, one core',
    },
    {
      workload: 'paper model T = 12, softmax, one core',
      unit: 'steps/s',
      hereName: 'engine, 1 thread',
      here: rate(one.figures, 'softmax'),
      peer: twins.softmax?.stepsPerSecond,
      peerName: twin,
      goal: 1,
    },
    {
      workload: 'paper model T = 12, boltzmann (exact), one core',
      unit: 'steps/s',
      hereName: 'engine, 1 thread',
      here: rate(one.figures, 'boltzmann'),
      peer: twins.boltzmann?.stepsPerSecond,
      peerName: twin,
      goal: 2,
    },
    {
      workload: `paper model, softmax, ${o.cores} cores against one`,
      unit: 'steps/s',
      hereName: `engine, ${o.cores} threads`,
      here: byThreads(o.cores),
      peer: byThreads(1),
      peerName: 'engine, 1 thread (alternating windows with the other)',
      goal: 1.6,
    },
  ];
  return { rows, roofline, twins, peakGflops: rows[0]!.here! };
}

/** GPT baby on both cores: softmax against nanoGPT, transfer-matrix against softmax, and its roofline. */
async function babyRows(
  o: RoundOptions,
  python: string,
  nanoGpt: string,
  round: number,
  peakGflops: number,
) {
  const args = [
    '--model',
    'baby',
    '--variants',
    'softmax,boltzmann',
    '--sampler',
    'transfer-matrix',
  ];
  const baby = runBenchEngine([...args, '--threads', String(o.cores), '--steps', '20']);
  console.log(
    `\nround ${round}: scripts/benchEngine.ts ${args.join(' ')} --threads ${o.cores} --steps 20:\n${baby.report}\n`,
  );
  const work = prepareNanoGpt(nanoGpt, o.input, python);
  const ms = runNanoGpt(work, python, o.nanoIters, o.cores);
  if (typeof ms === 'string') console.log(ms);
  rmSync(work, { recursive: true, force: true });
  const engine = `engine, ${o.cores} threads`;
  const rows: PeerRow[] = [
    {
      workload: `GPT \`baby\` (4 L × 4 H × 128, block 64, batch 12), softmax, ${o.cores} cores`,
      unit: 'ms/iteration',
      hereName: engine,
      here: time(baby.figures, 'softmax'),
      peer: typeof ms === 'number' ? ms : undefined,
      peerName: `nanoGPT, ${o.cores} threads, median of iterations 5–${o.nanoIters}`,
      goal: 0.5,
    },
    {
      workload: 'GPT `baby` boltzmann transfer-matrix (banded:8) against its softmax',
      unit: 'ms/iteration',
      hereName: engine,
      here: time(baby.figures, 'boltzmann'),
      peer: time(baby.figures, 'softmax'),
      peerName: 'the engine’s softmax',
      goal: 1 / 1.5,
    },
  ];
  const bandwidth = (await concurrentBandwidth(o.cores)).reduce((a, b) => a + b, 0);
  const shape = { ...BENCH_MODELS.baby, window: 8 };
  const roofs = { peakGflops, bandwidth };
  const softmaxMs = time(baby.figures, 'softmax');
  const roofline = transferRoofline(shape, softmaxMs, roofs, time(baby.figures, 'boltzmann'));
  return { rows, roofline };
}

/** Measures every row once; the baby rows need nanoGPT and torch. */
export async function measureRound(o: RoundOptions, round: number): Promise<PeerRound> {
  const paper = await paperRows(o, round);
  if (o.nanoGpt === undefined || o.python === undefined)
    return { rows: paper.rows, roofline: paper.roofline, twins: paper.twins };
  const baby = await babyRows(o, o.python, o.nanoGpt, round, paper.peakGflops);
  return {
    rows: [...paper.rows, ...baby.rows],
    roofline: [...paper.roofline, ...baby.roofline],
    twins: paper.twins,
  };
}

/** The input of nanoGPT's data under `dataDir`. */
export const shakespeareInput = (dataDir: string): string =>
  join(dataDir, 'tinyshakespeare', 'input.txt');
