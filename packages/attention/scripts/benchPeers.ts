/**
 * This package's training speed beside its PyTorch peers, measured in one run (issue 26).
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchPeers.ts \
 *     [--steps 40] [--python /usr/bin/python3] [--nanogpt <dir>] [--nanogpt-iters 40] [--threads 1,2]
 *
 * Rows, one after the other (never two at once), so their ratios compare like with like:
 * - the paper model (METHOD.md §5, batch 64, T = 12), softmax and boltzmann (exact): this
 *   package's trainer on tfjs-wasm (`scripts/benchTraining.ts --model paper`, one core) against
 *   the PyTorch twin `bench/peers/paper_twin.py` on one thread (`torch.set_num_threads(1)`,
 *   OMP/OPENBLAS/MKL_NUM_THREADS=1);
 * - with `--nanogpt <dir>`: GPT `baby` softmax (`benchTraining.ts --model baby`, tfjs on one core)
 *   against nanoGPT's README CPU configuration on each of `--threads` thread counts (default 1 and
 *   every core), in ms/iteration. `<dir>` is a nanoGPT work tree or its git repository (the `fetch` tool's
 *   /work/.mirror/karpathy+nanoGPT/repo); its data is prepared from the local Tiny Shakespeare
 *   ($BOLTZMANN_DATA_DIR/tinyshakespeare/input.txt, default ../../../shared/data), no download.
 * Without python3 + torch it says how to install them and prints the tfjs rows alone (exit 0).
 * Prints the load average at the start and the end: a busy machine lowers every figure.
 */
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { formatLoad, formatPeerTable, usesReferenceBlas } from '../bench/peers/peerTable.js';
import type { PeerRow } from '../bench/peers/peerTable.js';
import {
  findTorchPython,
  prepareNanoGpt,
  runBenchTraining,
  runNanoGpt,
  runTwin,
} from '../bench/peers/runPeers.js';

const arg = (name: string, fallback?: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const steps = Number(arg('steps', '40'));
const nanoGpt = arg('nanogpt');
const nanoIters = Number(arg('nanogpt-iters', '40'));
/** nanoGPT's thread counts, one row each (default 1 and every core). */
const threadCounts = (arg('threads') ?? `1,${availableParallelism()}`)
  .split(',')
  .map(Number)
  .filter((n, i, all) => n >= 1 && all.indexOf(n) === i);
const dataDir = resolve(process.env.BOLTZMANN_DATA_DIR || '../../../shared/data');
const VARIANTS = [
  { name: 'softmax', workload: 'paper model T = 12, softmax, one core' },
  { name: 'boltzmann', workload: 'paper model T = 12, boltzmann (exact), one core' },
] as const;

const loadStart = loadavg();
console.log(`load average at start: ${formatLoad(loadStart)} (${availableParallelism()} cores)`);
/** `--python` alone when given; else `python3` on the PATH, then Debian's own. */
const explicitPython = arg('python');
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

const rows: PeerRow[] = [];
const paper = runBenchTraining(['--model', 'paper', '--steps', String(steps)]);
console.log(`\nscripts/benchTraining.ts --model paper --steps ${steps}:\n${paper.report}\n`);
for (const v of VARIANTS) {
  const mine = paper.figures.find((f) => f.variant === v.name);
  const twin = torch === undefined ? undefined : runTwin(torch.python, v.name, steps, 1);
  if (typeof twin === 'string') console.log(twin);
  else if (twin !== undefined && usesReferenceBlas(twin)) {
    console.log(
      `warning: the twin runs on the reference BLAS (${twin.blas.join(', ')}), ~10× slower than OpenBLAS: apt-get install -y libopenblas0-pthread`,
    );
  }
  rows.push({
    workload: v.workload,
    unit: 'steps/s',
    here: mine?.stepsPerSecond,
    peer: typeof twin === 'object' ? twin.stepsPerSecond : undefined,
    peerName: 'PyTorch twin, 1 thread',
  });
}

if (nanoGpt === undefined) {
  console.log(
    'nanoGPT row skipped: pass --nanogpt <dir>, a karpathy/nanoGPT work tree or git repository\n' +
      "  (e.g. git clone https://github.com/karpathy/nanoGPT /tmp/nanoGPT; or the fetch tool's /work/.mirror/karpathy+nanoGPT/repo).",
  );
} else if (torch === undefined) {
  console.log('nanoGPT row skipped: it needs a Python that imports torch (see above).');
} else {
  const baby = runBenchTraining(['--model', 'baby', '--variants', 'softmax', '--steps', '10']);
  console.log(
    `\nscripts/benchTraining.ts --model baby --variants softmax --steps 10:\n${baby.report}\n`,
  );
  const work = prepareNanoGpt(nanoGpt, join(dataDir, 'tinyshakespeare', 'input.txt'), torch.python);
  for (const threads of threadCounts) {
    const ms = runNanoGpt(work, torch.python, nanoIters, threads);
    if (typeof ms === 'string') console.log(ms);
    rows.push({
      workload: `GPT \`baby\` (4 L × 4 H × 128, block 64, batch 12), softmax; tfjs on one core`,
      unit: 'ms/iteration',
      here: baby.figures[0]?.msPerStep,
      peer: typeof ms === 'number' ? ms : undefined,
      peerName: `nanoGPT, ${threads} thread${threads > 1 ? 's' : ''}, median of iterations 5–${nanoIters}`,
    });
  }
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${formatPeerTable(rows)}\n`);
console.log(
  `ratio: here's speed over the peer's (> 1: faster here). tfjs figures: median step of ${steps} (paper) or 10 (baby) after a warm-up step; twin: median of ${steps}.`,
);
console.log(`load average at start: ${formatLoad(loadStart)}; at end: ${formatLoad(loadavg())}`);
