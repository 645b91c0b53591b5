/**
 * This package's training speed beside its PyTorch peers, measured in one run (issue 26): the
 * engine against the goals, and the tfjs path as it was.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchPeers.ts \
 *     [--steps 40] [--rounds 3] [--python /usr/bin/python3] [--nanogpt <dir>] [--nanogpt-iters 40]
 *     [--no-tfjs]
 *
 * Every figure is measured here, one process after the other (never two at once):
 * - the paper model (METHOD.md §5, batch 64, T = 12), softmax and boltzmann (exact), on the
 *   engine (`scripts/benchEngine.ts`, one thread) and on tfjs-wasm (`scripts/benchTraining.ts`,
 *   one core), against the PyTorch twin `bench/peers/paper_twin.py` on one thread
 *   (`torch.set_num_threads(1)`, OMP/OPENBLAS/MKL_NUM_THREADS=1); and softmax on both cores
 *   against one (`scripts/benchScaling.ts`: two trainers in one process, stepped in alternating
 *   half-second windows);
 * - with `--nanogpt <dir>`: GPT `baby` softmax and boltzmann transfer-matrix (banded:8) on the
 *   engine with both cores, against nanoGPT's README CPU configuration on as many threads, in
 *   ms/iteration. `<dir>` is a nanoGPT work tree or its git repository (the `fetch` tool's
 *   /work/.mirror/karpathy+nanoGPT/repo); its data is prepared from the local Tiny Shakespeare
 *   ($BOLTZMANN_DATA_DIR/tinyshakespeare/input.txt, default ../../../shared/data), no download.
 * Without python3 + torch it says how to install them and prints the rows it can (exit 0).
 * The machine is shared and noisy (the twin's speed alone moved 1.6× within an hour), so every row
 * is measured in `--rounds` rounds (bench/peers/peerRound.ts), each round side by side: the
 * table gives each figure's median and each ratio's median with its range over the rounds. The
 * goal column says, row by row, whether the median meets the goal; under the table the
 * roofline of the goals (bench/peers/roofline.ts) from the median round of the one-core row.
 */
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { measureRound, shakespeareInput } from '../bench/peers/peerRound.js';
import type { PeerRound } from '../bench/peers/peerRound.js';
import { combineRounds, formatLoad, formatPeerTable, median } from '../bench/peers/peerTable.js';
import type { PeerRow } from '../bench/peers/peerTable.js';
import { findTorchPython, runBenchTraining } from '../bench/peers/runPeers.js';
import { scriptArg } from '../bench/scriptArgs.js';

const steps = Number(scriptArg('steps', '40'));
const roundCount = Number(scriptArg('rounds', '3'));
if (!Number.isInteger(roundCount) || roundCount < 1)
  throw new Error(`--rounds must be a positive integer, got ${roundCount}`);
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
const nanoGpt = scriptArg('nanogpt');
if (nanoGpt === undefined || torch === undefined)
  console.log(
    nanoGpt === undefined
      ? 'nanoGPT rows skipped: pass --nanogpt <dir>, a karpathy/nanoGPT work tree or git repository\n' +
          "  (e.g. git clone https://github.com/karpathy/nanoGPT /tmp/nanoGPT; or the fetch tool's /work/.mirror/karpathy+nanoGPT/repo)."
      : 'nanoGPT rows skipped: they need a Python that imports torch (see above).',
  );

const options = {
  steps,
  cores,
  python: torch?.python,
  nanoGpt,
  nanoIters: Number(scriptArg('nanogpt-iters', '40')),
  input: shakespeareInput(dataDir),
};
const rounds: PeerRound[] = [];
for (let r = 1; r <= roundCount; r++) rounds.push(await measureRound(options, r));
const rows: PeerRow[] = combineRounds(rounds.map((r) => r.rows));

// The tfjs path as it was, once: its steps/s against the twin's median.
if (!process.argv.includes('--no-tfjs')) {
  const paper = runBenchTraining(['--model', 'paper', '--steps', String(steps)]);
  for (const variant of ['softmax', 'boltzmann'] as const) {
    const twins = rounds.map((r) => r.twins[variant]?.stepsPerSecond);
    const measured = twins.filter((x): x is number => x !== undefined);
    rows.push({
      workload: `paper model T = 12, ${variant === 'softmax' ? 'softmax' : 'boltzmann (exact)'}, one core (the tfjs path)`,
      unit: 'steps/s',
      hereName: 'tfjs-wasm',
      here: paper.figures.find((f) => f.variant === variant)?.stepsPerSecond,
      peer: measured.length === 0 ? undefined : median(measured),
      peerName: 'PyTorch twin, 1 thread (median)',
    });
  }
}

console.log(`\n${formatPeerTable(rows)}\n`);
// The roofline of the round whose one-core softmax ratio is the median one.
const oneCore = rows.find((r) => r.workload.startsWith('paper model T = 12, softmax, one core'));
const ratios = oneCore?.rounds ?? [];
const middle = ratios.length === rounds.length ? ratios.indexOf(median(ratios)) : -1;
const shown = rounds[middle >= 0 ? middle : rounds.length - 1]!;
if (shown.roofline.length > 0)
  console.log(`round ${rounds.indexOf(shown) + 1}'s roofline:\n${shown.roofline.join('\n')}\n`);
console.log(
  `ratio: here's speed over the peer's (> 1: faster here), the median of ${roundCount} round(s) measured side by side, with its range; goal: the least ratio the issue asks for. Engine and tfjs figures: median step of ${steps} (paper) or 20 (baby) after warm-up steps; twin: median of ${steps}; here and peer: medians over the rounds.`,
);
console.log(`load average at start: ${formatLoad(loadStart)}; at end: ${formatLoad(loadavg())}`);
