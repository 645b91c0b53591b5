/**
 * This package's training speed beside its PyTorch peers, measured in one run (issues 26 and
 * 38): the engine against the goals, and the tfjs path as it was.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchPeers.ts \
 *     [--steps 40] [--rounds 3] [--python /usr/bin/python3] [--nanogpt <dir>] [--nanogpt-iters 40]
 *     [--probe-steps 10] [--whole-iters 200] [--no-tfjs] [--backends native,wasm]
 *
 * `--backends` (issue 40): the engine's backends, each engine row measured once per backend in
 * every round, side by side with the same peer figure; the "here" column names the backend and
 * ISA (`engine native avx512, 1 thread`, `engine wasm, 1 thread`), the goal column gives issue
 * 40's native goals on native rows and marks wasm rows `wasm (fallback)`. Default: native and
 * wasm where the addon loads, else wasm alone (one line says why).
 *
 * Every figure is measured here, one process after the other (never two at once):
 * - first, each PyTorch peer (the twin's softmax and boltzmann, nanoGPT) runs `--probe-steps`
 *   steps in each thread configuration of bench/peers/peerConfigs.ts — torch, OpenMP and
 *   OpenBLAS on one thread; torch and OpenMP on every core with OpenBLAS on one; OpenBLAS on
 *   every core with torch on one; never both pools at once, which oversubscribed two cores and
 *   made nanoGPT ~4× slower (issue 38) — without the machine's OPENBLAS_CORETYPE and
 *   OPENBLAS_L2_SIZE; the fastest configuration is the one measured, and the table prints it;
 * - the paper model (METHOD.md §5, batch 64, T = 12), softmax and boltzmann (exact), on the
 *   engine (`scripts/benchEngine.ts`, one thread) and on tfjs-wasm (`scripts/benchTraining.ts`,
 *   one core), against the PyTorch twin `bench/peers/paper_twin.py` in its fastest
 *   configuration; and softmax on all cores, against the twin at its best thread count and
 *   against one core (`scripts/benchScaling.ts`: two trainers in one process, stepped in
 *   alternating half-second windows);
 * - with `--nanogpt <dir>`: GPT `baby` softmax and boltzmann transfer-matrix (banded:8) on the
 *   engine with both cores, against nanoGPT's README CPU configuration in its fastest
 *   configuration, in ms/iteration; and, unless `--whole-iters 0`, GPT `baby` softmax for
 *   `--whole-iters` iterations as whole processes, spawn to exit, each evaluated at both ends:
 *   the `bench gpt` CLI (`--workers 0`, the engine on the thread count its own brief trial
 *   found fastest, on each backend: `--engine-backend`) against nanoGPT's train.py. `<dir>` is a nanoGPT work tree or its git
 *   repository (the `fetch` tool's /work/.mirror/karpathy+nanoGPT/repo); its data is prepared
 *   from the local Tiny Shakespeare ($BOLTZMANN_DATA_DIR/tinyshakespeare/input.txt, default
 *   ../../../shared/data), no download.
 * Without python3 + torch it says how to install them and prints the rows it can (exit 0). When
 * torch calls the reference BLAS (Debian's libblas.so.3 without libopenblas0-pthread, 3–8×
 * slower) it says so, and the peers' figures are printed marked invalid, with no ratio.
 * The machine is shared and noisy (the twin's speed alone moved 1.6× within an hour), so every row
 * is measured in `--rounds` rounds (bench/peers/peerRound.ts), each round side by side: the
 * table gives each figure's median and each ratio's median with its range over the rounds. The
 * goal column says, row by row, whether the median meets the goal; under the table the
 * roofline of the goals (bench/peers/roofline.ts) from the median round of the one-core row.
 */
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { measureRound, shakespeareInput, twinName } from '../bench/peers/peerRound.js';
import type { PeerRound } from '../bench/peers/peerRound.js';
import { invalidOn } from '../bench/peers/peerConfigs.js';
import type { Peers } from '../bench/peers/peerTypes.js';
import { combineRounds, formatLoad, formatPeerTable, median } from '../bench/peers/peerTable.js';
import type { PeerRow } from '../bench/peers/peerTable.js';
import { findTorchPython, prepareNanoGpt, runBenchTraining } from '../bench/peers/runPeers.js';
import { tunePeers } from '../bench/peers/tunePeers.js';
import { tuneBenchGpt } from '../bench/peers/wholeProcess.js';
import { peerBackends } from '../bench/peers/peerBackends.js';
import type { PeerBackend } from '../bench/peers/peerBackends.js';
import { engineBackendInfo } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

const args = parseScriptArgs(
  'benchPeers.ts [--backends VALUE] [--nanogpt VALUE] [--python VALUE] [--no-tfjs]',
  { backends: 'string', nanogpt: 'string', 'no-tfjs': 'boolean', python: 'string' },
);

/** A flag that must be an integer of at least `least`. */
function integerArg(name: string, fallback: string, least: number): number {
  const value = Number(scriptArg(name, fallback));
  if (!Number.isInteger(value) || value < least)
    throw new Error(`--${name} must be an integer of at least ${least}, got ${value}`);
  return value;
}

const steps = integerArg('steps', '40', 1);
const roundCount = integerArg('rounds', '3', 1);
const probeSteps = integerArg('probe-steps', '10', 2);
const wholeArg = integerArg('whole-iters', '200', 0);
if (wholeArg === 1) throw new Error('--whole-iters must be 0 (no whole-process row) or at least 2');
const cores = availableParallelism();
const dataDir = resolve(process.env.BOLTZMANN_DATA_DIR || '../../../shared/data');
const input = shakespeareInput(dataDir);

const loadStart = loadavg();
console.log(`load average at start: ${formatLoad(loadStart)} (${cores} cores)`);
const auto = engineBackendInfo('auto');
const { backends, line: backendsLine } = peerBackends(scriptArg('backends'), auto);
console.log(backendsLine);
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
} else {
  const libraries = torch.libraries.join(', ') || 'none mapped';
  console.log(`peer: ${torch.python}, torch ${torch.torch}, ${torch.blas.label} (${libraries})`);
  if (torch.blas.kind === 'reference')
    console.log(
      'reference BLAS: install libopenblas0-pthread (apt-get install -y libopenblas0-pthread);\n' +
        '  the peers run 3–8× slower on it: their figures are printed marked invalid, with no ratio.',
    );
}
const nanoGpt = scriptArg('nanogpt');
if (nanoGpt === undefined || torch === undefined)
  console.log(
    nanoGpt === undefined
      ? 'nanoGPT rows skipped: pass --nanogpt <dir>, a karpathy/nanoGPT work tree or git repository\n' +
          "  (e.g. git clone https://github.com/karpathy/nanoGPT /tmp/nanoGPT; or the fetch tool's /work/.mirror/karpathy+nanoGPT/repo)."
      : 'nanoGPT rows skipped: they need a Python that imports torch (see above).',
  );

// nanoGPT's work folder is prepared once, for the trials and every round.
const nanoGptWork =
  nanoGpt === undefined || torch === undefined
    ? undefined
    : prepareNanoGpt(nanoGpt, input, torch.python);
const peers: Peers | undefined =
  torch === undefined
    ? undefined
    : {
        python: torch.python,
        blas: torch.blas,
        configs: tunePeers({ ...torch, cores, probeSteps, nanoGptWork }),
      };
const wholeIters = nanoGptWork === undefined ? 0 : wholeArg;
const engineThreads: Partial<Record<PeerBackend, number>> = {};
if (wholeIters > 0)
  for (const backend of backends) {
    const threads = tuneBenchGpt(probeSteps, cores, input, backend);
    if (threads !== undefined) engineThreads[backend] = threads;
  }
const options = {
  steps,
  cores,
  peers,
  nanoGptWork,
  nanoIters: integerArg('nanogpt-iters', '40', 1),
  wholeIters,
  engineThreads,
  input,
  backends,
  nativeIsa: auto.name === 'native' ? auto.isa : undefined,
};
const rounds: PeerRound[] = [];
try {
  for (let r = 1; r <= roundCount; r++) rounds.push(await measureRound(options, r));
} finally {
  if (nanoGptWork !== undefined) rmSync(nanoGptWork, { recursive: true, force: true });
}
const rows: PeerRow[] = combineRounds(rounds.map((r) => r.rows));

// The tfjs path as it was, once: its steps/s against the twin's median.
if (!args['no-tfjs'] === true) {
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
      peerName: `${twinName(peers, variant)} (median)`,
      invalid: invalidOn(peers?.blas),
    });
  }
}

console.log(`\n${formatPeerTable(rows)}\n`);
// The roofline of the round whose one-core softmax ratio (the first backend's) is the median one.
const oneCore = rows.find((r) =>
  r.workload.startsWith('paper model T = 12, softmax, engine on one core'),
);
const ratios = oneCore?.rounds ?? [];
const middle = ratios.length === rounds.length ? ratios.indexOf(median(ratios)) : -1;
const shown = rounds[middle >= 0 ? middle : rounds.length - 1]!;
if (shown.roofline.length > 0)
  console.log(`round ${rounds.indexOf(shown) + 1}'s roofline:\n${shown.roofline.join('\n')}\n`);
console.log(
  `ratio: here's speed over the peer's (> 1: faster here), the median of ${roundCount} round(s) measured side by side, with its range; goal: the least ratio the issue asks for. Engine and tfjs figures: median step of ${steps} (paper) or 20 (baby) after warm-up steps; twin: median of ${steps}; whole processes: seconds from spawn to exit; here and peer: medians over the rounds. Each peer ran in the configuration (torch, OMP, OpenBLAS threads) its trials found fastest.`,
);
console.log(`load average at start: ${formatLoad(loadStart)}; at end: ${formatLoad(loadavg())}`);
