// One round of scripts/benchPeers.ts: every row of the goals table measured once, one process
// after the other (the engine on each backend, the PyTorch twin, nanoGPT), with the roofline of
// the goals from the same round's figures. The script runs several rounds and combines them; each
// peer runs in the thread configuration its trials found fastest (bench/peers/tunePeers.ts).
// Every engine row is measured once per backend (bench/peers/peerBackends.ts), beside the same
// peer figure; the paper rows are here, GPT baby's in bench/peers/babyRows.ts.
import { join } from 'node:path';
import { concurrentPeaks } from '../wasmPeak.js';
import { babyRows } from './babyRows.js';
import { blasVerdict, describeConfig, invalidOn } from './peerConfigs.js';
import { NATIVE_GOALS, backendGoal, engineHereName } from './peerBackends.js';
import type { PeerBackend } from './peerBackends.js';
import type { BenchEngineFigure, PeerRow, TwinFigure } from './peerTable.js';
import { oneCoreRoofline } from './roofline.js';
import { runBenchEngine, runBenchScaling, runTorchGemm, runTwin } from './runPeers.js';
import type { Peers, RoundOptions } from './peerTypes.js';

/** A twin row's peer name: `PyTorch twin, torch 1 thread, OMP 1, OpenBLAS 1 (pthread)`. */
export function twinName(peers: Peers | undefined, variant: 'softmax' | 'boltzmann'): string {
  const config = peers?.configs.twin[variant];
  return config === undefined || peers === undefined
    ? 'PyTorch twin'
    : `PyTorch twin, ${describeConfig(config, peers.blas)}`;
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

/** One backend's paper figures: one thread (benchEngine.ts), and all cores against one (benchScaling.ts). */
interface PaperRun {
  readonly backend: PeerBackend;
  readonly isa: string | undefined;
  readonly one: BenchEngineFigure[];
  readonly scaling: BenchEngineFigure[];
}

/** The paper model on `backend`: one thread, then all cores against one in alternating windows. */
function paperRun(o: RoundOptions, backend: PeerBackend, round: number): PaperRun {
  const oneArgs = ['--model', 'paper', '--threads', '1', '--steps', String(o.steps)];
  const one = runBenchEngine([...oneArgs, '--backend', backend]);
  console.log(
    `\nround ${round}: scripts/benchEngine.ts ${oneArgs.join(' ')} --backend ${backend}:`,
  );
  console.log(`${one.report}\n`);
  // Both cores against one in alternating windows of one process, so that the machine's drift
  // falls on both alike (scripts/benchScaling.ts).
  const scalingArgs = ['--model', 'paper', '--variant', 'softmax', '--threads', String(o.cores)];
  const scaling = runBenchScaling([...scalingArgs, '--backend', backend]);
  console.log(
    `\nround ${round}: scripts/benchScaling.ts ${scalingArgs.join(' ')} --backend ${backend}:\n${scaling.report}\n`,
  );
  const isa = one.figures[0]?.isa;
  return { backend, isa, one: one.figures, scaling: scaling.figures };
}

/** The paper rows, each once per backend, side by side with the same twin figure. */
function paperEngineRows(
  o: RoundOptions,
  runs: readonly PaperRun[],
  twins: { softmax?: TwinFigure | undefined; boltzmann?: TwinFigure | undefined },
): PeerRow[] {
  const byThreads = (r: PaperRun, n: number) =>
    r.scaling.find((f) => f.threads === n)?.stepsPerSecond;
  const each = (row: (r: PaperRun) => PeerRow) => runs.map(row);
  const twinRow = (variant: 'softmax' | 'boltzmann') => ({
    peer: twins[variant]?.stepsPerSecond,
    peerName: twinName(o.peers, variant),
    invalid: twinInvalid(o.peers, twins[variant]),
  });
  const unit = 'steps/s' as const;
  return [
    ...each((r) => ({
      workload: 'paper model T = 12, softmax, engine on one core',
      unit,
      hereName: engineHereName(r.backend, r.isa, 1),
      here: rate(r.one, 'softmax'),
      ...twinRow('softmax'),
      ...backendGoal(r.backend, NATIVE_GOALS.paperSoftmax),
    })),
    ...each((r) => ({
      workload: 'paper model T = 12, boltzmann (exact), engine on one core',
      unit,
      hereName: engineHereName(r.backend, r.isa, 1),
      here: rate(r.one, 'boltzmann'),
      ...twinRow('boltzmann'),
      ...backendGoal(r.backend, NATIVE_GOALS.paperBoltzmann),
    })),
    ...each((r) => ({
      workload: `paper model T = 12, softmax, engine on all ${o.cores} cores against the twin at its best thread count`,
      unit,
      hereName: engineHereName(r.backend, r.isa, o.cores),
      here: byThreads(r, o.cores),
      ...twinRow('softmax'),
      ...backendGoal(r.backend, NATIVE_GOALS.paperAllCores),
    })),
    ...each((r) => ({
      workload: `paper model, softmax, ${o.cores} cores against one`,
      unit,
      hereName: engineHereName(r.backend, r.isa, o.cores),
      here: byThreads(r, o.cores),
      peer: byThreads(r, 1),
      peerName: `${engineHereName(r.backend, r.isa, 1)} (alternating windows with the other)`,
      ...backendGoal(r.backend, 1.6),
    })),
  ];
}

/** The machine row and the paper rows: one core against the twin, all cores against it and against one. */
async function paperRows(o: RoundOptions, round: number) {
  const [onePeak] = await concurrentPeaks(1);
  const peaks = await concurrentPeaks(o.cores);
  const runs = o.backends.map((backend) => paperRun(o, backend, round));
  const twins = {
    softmax: twinOf(o.peers, 'softmax', o.steps),
    boltzmann: twinOf(o.peers, 'boltzmann', o.steps),
  };
  const gemm = o.peers === undefined ? undefined : runTorchGemm(o.peers.python, 1);
  if (typeof gemm === 'string') console.log(gemm);
  const goals = { softmax: NATIVE_GOALS.paperSoftmax, boltzmann: NATIVE_GOALS.paperBoltzmann };
  const roofline = runs.flatMap((r) => {
    const softmax = r.one.find((f) => f.variant === 'softmax');
    const lines = oneCoreRoofline(
      softmax,
      twins,
      typeof gemm === 'string' ? undefined : gemm,
      goals,
    );
    return lines.length === 0 ? [] : [`${engineHereName(r.backend, r.isa, 1)}:`, ...lines];
  });
  const machine: PeerRow = {
    workload: `this machine: wasm f32x4 peak, ${o.cores} cores at once against one (the ceiling of the wasm ${o.cores}-core rows)`,
    unit: 'GFLOP/s',
    hereName: 'summed',
    here: peaks.reduce((a, b) => a + b, 0),
    peer: onePeak,
    peerName: 'one core',
  };
  const rows = [machine, ...paperEngineRows(o, runs, twins)];
  return { rows, roofline, twins, peakGflops: machine.here! };
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
