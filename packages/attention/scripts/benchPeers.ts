/**
 * This package's training speed beside its PyTorch peers, measured in one run (issue 26): the
 * engine against the goals, and the tfjs path as it was.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchPeers.ts \
 *     [--steps 40] [--python /usr/bin/python3] [--nanogpt <dir>] [--nanogpt-iters 40] [--no-tfjs]
 *
 * Every figure is measured here, one process after the other (never two at once):
 * - the paper model (METHOD.md §5, batch 64, T = 12), softmax and boltzmann (exact), on the
 *   engine (`scripts/benchEngine.ts`, one thread, then softmax on both cores) and on tfjs-wasm
 *   (`scripts/benchTraining.ts`, one core), against the PyTorch twin `bench/peers/paper_twin.py`
 *   on one thread (`torch.set_num_threads(1)`, OMP/OPENBLAS/MKL_NUM_THREADS=1);
 * - with `--nanogpt <dir>`: GPT `baby` softmax and boltzmann transfer-matrix (banded:8) on the
 *   engine with both cores, against nanoGPT's README CPU configuration on as many threads, in
 *   ms/iteration. `<dir>` is a nanoGPT work tree or its git repository (the `fetch` tool's
 *   /work/.mirror/karpathy+nanoGPT/repo); its data is prepared from the local Tiny Shakespeare
 *   ($BOLTZMANN_DATA_DIR/tinyshakespeare/input.txt, default ../../../shared/data), no download.
 * Without python3 + torch it says how to install them and prints the rows it can (exit 0).
 * The table's goal column says, row by row, whether the goal is met.
 */
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { formatLoad, formatPeerTable, usesReferenceBlas } from '../bench/peers/peerTable.js';
import { concurrentPeaks } from '../bench/wasmPeak.js';
import type { BenchEngineFigure, PeerRow, TwinFigure } from '../bench/peers/peerTable.js';
import { oneCoreRoofline, transferRoofline } from '../bench/peers/roofline.js';
import {
  findTorchPython,
  prepareNanoGpt,
  runBenchEngine,
  runBenchTraining,
  runNanoGpt,
  runTorchGemm,
  runTwin,
} from '../bench/peers/runPeers.js';
import { BENCH_MODELS } from '../bench/benchModels.js';
import { scriptArg } from '../bench/scriptArgs.js';

const steps = Number(scriptArg('steps', '40'));
const nanoGpt = scriptArg('nanogpt');
const nanoIters = Number(scriptArg('nanogpt-iters', '40'));
const cores = availableParallelism();
const dataDir = resolve(process.env.BOLTZMANN_DATA_DIR || '../../../shared/data');

const loadStart = loadavg();
console.log(`load average at start: ${formatLoad(loadStart)} (${cores} cores)`);
/** `--python` alone when given; else `python3` on the PATH, then Debian's own. */
const explicitPython = scriptArg('python');
const candidates =
  explicitPython === undefined ? ['python3', '/usr/bin/python3'] : [explicitPython];
const torch = findTorchPython(candidates);
if (torch === undefined) {
  console.log(
    `No Python with torch among ${candidates.join(', ')}: the peer rows are skipped.\n` +
      "  Install Debian's PyTorch and OpenBLAS: apt-get install -y python3-torch libopenblas0-pthread\n" +
      '  (or pass --python <interpreter that imports torch>).',
  );
} else console.log(`peer: ${torch.python}, torch ${torch.torch}`);

/** The twin's figure on one thread, or undefined (with its error printed). */
function twinOf(variant: string): TwinFigure | undefined {
  if (torch === undefined) return undefined;
  const twin = runTwin(torch.python, variant, steps, 1);
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

const rate = (figures: BenchEngineFigure[], variant: string) =>
  figures.find((f) => f.variant === variant)?.stepsPerSecond;
const time = (figures: BenchEngineFigure[], variant: string) =>
  figures.find((f) => f.variant === variant)?.msPerStep;

const rows: PeerRow[] = [];
// The ceiling of every both-cores row: what two cores' SIMD units give at once on this machine.
const [onePeak] = await concurrentPeaks(1);
const peaks = await concurrentPeaks(cores);
rows.push({
  workload: `this machine: wasm f32x4 peak, ${cores} cores at once against one (the ceiling of the ${cores}-core rows)`,
  unit: 'steps/s',
  hereName: 'GFLOP/s, summed',
  here: peaks.reduce((a, b) => a + b, 0),
  peer: onePeak,
  peerName: 'GFLOP/s, one core',
});
const stepArgs = ['--steps', String(steps)];
const one = runBenchEngine(['--model', 'paper', '--threads', '1', ...stepArgs]);
console.log(
  `\nscripts/benchEngine.ts --model paper --threads 1 --steps ${steps}:\n${one.report}\n`,
);
const both = runBenchEngine([
  '--model',
  'paper',
  '--variants',
  'softmax',
  '--threads',
  String(cores),
  ...stepArgs,
]);
const twins = { softmax: twinOf('softmax'), boltzmann: twinOf('boltzmann') };
const torchGemm = torch === undefined ? undefined : runTorchGemm(torch.python, 1);
if (typeof torchGemm === 'string') console.log(torchGemm);
/** Lines printed under the table: the roofline of each goal that can be missed. */
const roofline = oneCoreRoofline(
  one.figures.find((f) => f.variant === 'softmax'),
  twins,
  typeof torchGemm === 'string' ? undefined : torchGemm,
);
rows.push(
  {
    workload: 'paper model T = 12, softmax, one core',
    unit: 'steps/s',
    hereName: 'engine, 1 thread',
    here: rate(one.figures, 'softmax'),
    peer: twins.softmax?.stepsPerSecond,
    peerName: 'PyTorch twin, 1 thread',
    goal: 1,
  },
  {
    workload: 'paper model T = 12, boltzmann (exact), one core',
    unit: 'steps/s',
    hereName: 'engine, 1 thread',
    here: rate(one.figures, 'boltzmann'),
    peer: twins.boltzmann?.stepsPerSecond,
    peerName: 'PyTorch twin, 1 thread',
    goal: 2,
  },
  {
    workload: `paper model, softmax, ${cores} cores against one`,
    unit: 'steps/s',
    hereName: `engine, ${cores} threads`,
    here: rate(both.figures, 'softmax'),
    peer: rate(one.figures, 'softmax'),
    peerName: 'engine, 1 thread',
    goal: 1.6,
  },
);

if (nanoGpt === undefined || torch === undefined) {
  console.log(
    nanoGpt === undefined
      ? 'nanoGPT rows skipped: pass --nanogpt <dir>, a karpathy/nanoGPT work tree or git repository\n' +
          "  (e.g. git clone https://github.com/karpathy/nanoGPT /tmp/nanoGPT; or the fetch tool's /work/.mirror/karpathy+nanoGPT/repo)."
      : 'nanoGPT rows skipped: they need a Python that imports torch (see above).',
  );
} else {
  const babyArgs = [
    '--model',
    'baby',
    '--variants',
    'softmax,boltzmann',
    '--sampler',
    'transfer-matrix',
  ];
  const baby = runBenchEngine([...babyArgs, '--threads', String(cores), '--steps', '20']);
  console.log(
    `\nscripts/benchEngine.ts ${babyArgs.join(' ')} --threads ${cores} --steps 20:\n${baby.report}\n`,
  );
  const work = prepareNanoGpt(nanoGpt, join(dataDir, 'tinyshakespeare', 'input.txt'), torch.python);
  const ms = runNanoGpt(work, torch.python, nanoIters, cores);
  if (typeof ms === 'string') console.log(ms);
  rmSync(work, { recursive: true, force: true });
  rows.push(
    {
      workload: `GPT \`baby\` (4 L × 4 H × 128, block 64, batch 12), softmax, ${cores} cores`,
      unit: 'ms/iteration',
      hereName: `engine, ${cores} threads`,
      here: time(baby.figures, 'softmax'),
      peer: typeof ms === 'number' ? ms : undefined,
      peerName: `nanoGPT, ${cores} threads, median of iterations 5–${nanoIters}`,
      goal: 0.5,
    },
    {
      workload: 'GPT `baby` boltzmann transfer-matrix (banded:8) against its softmax',
      unit: 'ms/iteration',
      hereName: `engine, ${cores} threads`,
      here: time(baby.figures, 'boltzmann'),
      peer: time(baby.figures, 'softmax'),
      peerName: 'the engine’s softmax',
      goal: 1 / 1.5,
    },
  );
  const summed = peaks.reduce((a, b) => a + b, 0);
  const shape = { ...BENCH_MODELS.baby, window: 8 };
  roofline.push(...transferRoofline(shape, time(baby.figures, 'softmax'), summed));
}

if (!process.argv.includes('--no-tfjs')) {
  const paper = runBenchTraining(['--model', 'paper', ...stepArgs]);
  for (const variant of ['softmax', 'boltzmann'] as const) {
    const mine = paper.figures.find((f) => f.variant === variant);
    rows.push({
      workload: `paper model T = 12, ${variant === 'softmax' ? 'softmax' : 'boltzmann (exact)'}, one core (the tfjs path)`,
      unit: 'steps/s',
      hereName: 'tfjs-wasm',
      here: mine?.stepsPerSecond,
      peer: twins[variant]?.stepsPerSecond,
      peerName: 'PyTorch twin, 1 thread',
    });
  }
}

console.log(`\n${formatPeerTable(rows)}\n`);
if (roofline.length > 0) console.log(`${roofline.join('\n')}\n`);
console.log(
  `ratio: here's speed over the peer's (> 1: faster here); goal: the least ratio the issue asks for. Engine and tfjs figures: median step of ${steps} (paper) or 20 (baby) after warm-up steps; twin: median of ${steps}.`,
);
console.log(`load average at start: ${formatLoad(loadStart)}; at end: ${formatLoad(loadavg())}`);
