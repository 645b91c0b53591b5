// One round of scripts/benchPeers.ts: every row of the goals table measured once, one process
// after the other (the engine, the PyTorch twin, nanoGPT), with the roofline of the goals
// from the same round's figures. The script runs several rounds and combines them; each peer
// runs in the thread configuration its trials found fastest (bench/peers/tunePeers.ts).
import { join } from 'node:path';
import { BENCH_MODELS } from '../benchModels.js';
import { concurrentBandwidth } from '../memoryBandwidth.js';
import { concurrentPeaks } from '../wasmPeak.js';
import { blasVerdict, describeConfig } from './peerConfigs.js';
import type { BlasVerdict } from './peerConfigs.js';
import type { BenchEngineFigure, PeerRow, TwinFigure } from './peerTable.js';
import { oneCoreRoofline, transferRoofline } from './roofline.js';
import { runBenchEngine, runBenchScaling, runNanoGpt, runTorchGemm, runTwin } from './runPeers.js';
import type { PeerConfigs } from './tunePeers.js';
import { wholeProcessRow } from './wholeProcess.js';

/** The PyTorch peers: the Python that imports torch, its BLAS, and each peer's configuration. */
export interface Peers {
  readonly python: string;
  readonly blas: BlasVerdict;
  readonly configs: PeerConfigs;
}

/** What every round shares: the run's options and the peers (if torch imports). */
export interface RoundOptions {
  readonly steps: number;
  readonly cores: number;
  readonly peers: Peers | undefined;
  /** nanoGPT's prepared work folder and its iterations, for the baby rows (skipped without it). */
  readonly nanoGptWork: string | undefined;
  readonly nanoIters: number;
  /** Iterations of the whole-process row (0: none) and the engine's tuned threads for it. */
  readonly wholeIters: number;
  readonly engineThreads: number | undefined;
  /** Tiny Shakespeare's input.txt, for nanoGPT's data. */
  readonly input: string;
}

/** A twin row's peer name: `PyTorch twin, torch 1 thread, OMP 1, OpenBLAS 1 (pthread)`. */
export function twinName(peers: Peers | undefined, variant: 'softmax' | 'boltzmann'): string {
  const config = peers?.configs.twin[variant];
  return config === undefined || peers === undefined
    ? 'PyTorch twin'
    : `PyTorch twin, ${describeConfig(config, peers.blas)}`;
}

/** Why a peer figure measured on `blas` is no measure: the reference BLAS. */
export const invalidOn = (blas: BlasVerdict | undefined): string | undefined =>
  blas?.kind === 'reference' ? 'reference BLAS' : undefined;

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

/** The twin's figure in its fastest configuration, or undefined (with its error printed). */
function twinOf(peers: Peers | undefined, variant: 'softmax' | 'boltzmann', steps: number) {
  const config = peers?.configs.twin[variant];
  if (peers === undefined || config === undefined) return undefined;
  const twin = runTwin(peers.python, variant, steps, config);
  if (typeof twin === 'string') {
    console.log(twin);
    return undefined;
  }
  return twin;
}

/** A twin row's verdict: its own mapped libraries, or the probe's when it printed none. */
const twinInvalid = (peers: Peers | undefined, twin: TwinFigure | undefined) =>
  invalidOn(twin && twin.blas.length > 0 ? blasVerdict(twin.blas) : peers?.blas);

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
    softmax: twinOf(o.peers, 'softmax', o.steps),
    boltzmann: twinOf(o.peers, 'boltzmann', o.steps),
  };
  const gemm = o.peers === undefined ? undefined : runTorchGemm(o.peers.python, 1);
  if (typeof gemm === 'string') console.log(gemm);
  const softmax = one.figures.find((f) => f.variant === 'softmax');
  const roofline = oneCoreRoofline(softmax, twins, typeof gemm === 'string' ? undefined : gemm);
  const rows: PeerRow[] = [
    {
      workload: `this machine: wasm f32x4 peak, ${o.cores} cores at once against one (the ceiling of the ${o.cores}-core rows)`,
      unit: 'GFLOP/s',
      hereName: 'summed',
      here: peaks.reduce((a, b) => a + b, 0),
      peer: onePeak,
      peerName: 'one core',
    },
    {
      workload: 'paper model T = 12, softmax, engine on one core',
      unit: 'steps/s',
      hereName: 'engine, 1 thread',
      here: rate(one.figures, 'softmax'),
      peer: twins.softmax?.stepsPerSecond,
      peerName: twinName(o.peers, 'softmax'),
      invalid: twinInvalid(o.peers, twins.softmax),
      goal: 1,
    },
    {
      workload: 'paper model T = 12, boltzmann (exact), engine on one core',
      unit: 'steps/s',
      hereName: 'engine, 1 thread',
      here: rate(one.figures, 'boltzmann'),
      peer: twins.boltzmann?.stepsPerSecond,
      peerName: twinName(o.peers, 'boltzmann'),
      invalid: twinInvalid(o.peers, twins.boltzmann),
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
  peers: Peers,
  work: string,
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
  const config = peers.configs.nanoGpt;
  const ms = config && runNanoGpt(work, peers.python, o.nanoIters, config);
  if (typeof ms === 'string') console.log(ms);
  const engine = `engine, ${o.cores} threads`;
  const rows: PeerRow[] = [
    {
      workload: `GPT \`baby\` (4 L × 4 H × 128, block 64, batch 12), softmax, ${o.cores} cores`,
      unit: 'ms/iteration',
      hereName: engine,
      here: time(baby.figures, 'softmax'),
      peer: typeof ms === 'number' ? ms : undefined,
      peerName: `nanoGPT, ${config ? describeConfig(config, peers.blas) : 'no configuration ran'}, median of iterations 5–${o.nanoIters}`,
      invalid: invalidOn(peers.blas),
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
  if (o.wholeIters > 0) {
    const { python, blas } = peers;
    const { engineThreads, input } = o;
    rows.push(
      wholeProcessRow({
        iterations: o.wholeIters,
        engineThreads,
        python,
        blas,
        work,
        config,
        input,
      }),
    );
  }
  return { rows, roofline };
}

/** Measures every row once; the baby rows need nanoGPT and torch. */
export async function measureRound(o: RoundOptions, round: number): Promise<PeerRound> {
  const paper = await paperRows(o, round);
  if (o.nanoGptWork === undefined || o.peers === undefined)
    return { rows: paper.rows, roofline: paper.roofline, twins: paper.twins };
  const baby = await babyRows(o, o.peers, o.nanoGptWork, round, paper.peakGflops);
  return {
    rows: [...paper.rows, ...baby.rows],
    roofline: [...paper.roofline, ...baby.roofline],
    twins: paper.twins,
  };
}

/** The input of nanoGPT's data under `dataDir`. */
export const shakespeareInput = (dataDir: string): string =>
  join(dataDir, 'tinyshakespeare', 'input.txt');
