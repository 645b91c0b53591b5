/**
 * Issue 41's goals for exact banded Boltzmann attention, measured in one run: the GPT `baby` and
 * the paper model at T = 256 with the banded:8 transfer matrix (float32: the engine's own
 * transfer kernels where the backend has them) beside softmax on the same backend and threads,
 * and the kernels' share of the backend's one-core peak with their flops and bytes a state.
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchTransfer.ts \
 *     [--rounds 3] [--steps 20] [--threads <cores>] [--backends native,wasm]
 *
 * Each figure is scripts/benchEngine.ts in a child process, one after the other (never two at
 * once); every round measures every row side by side, and the table gives medians with each
 * ratio's range over the rounds. The kernels' row is benchEngine's one-thread split of the baby
 * step (bench/kernelSplit.ts), their flops counted by TRANSFER_COST (src/engine/transfer.ts).
 * One benchmark process: run it on an idle machine.
 */
import { availableParallelism, loadavg } from 'node:os';
import { engineBackendInfo } from '../src/index.js';
import { peerBackends } from '../bench/peers/peerBackends.js';
import type { PeerBackend } from '../bench/peers/peerBackends.js';
import { formatLoad, median } from '../bench/peers/peerTable.js';
import type { BenchEngineFigure } from '../bench/peers/peerTable.js';
import { runBenchEngine } from '../bench/peers/runPeers.js';
import { TABLE_HEAD, WORKLOADS, kernelRow, workloadRow } from '../bench/transfer/transferGoals.js';
import type { KernelRound, WorkloadRound } from '../bench/transfer/transferGoals.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

parseScriptArgs(
  'benchTransfer.ts [--backends VALUE] [--rounds VALUE] [--steps VALUE] [--threads VALUE]',
  { backends: 'string', rounds: 'string', steps: 'string', threads: 'string' },
);

const rounds = Number(scriptArg('rounds', '3'));
const steps = scriptArg('steps', '20');
const threads = scriptArg('threads', String(availableParallelism()));
const { backends, line } = peerBackends(scriptArg('backends'), engineBackendInfo('auto'));

console.log(`load average at start: ${formatLoad(loadavg())} (${availableParallelism()} cores)`);
console.log(`${line}; ${rounds} rounds of ${steps} steps; ${threads} engine thread(s)`);

const pick = (figures: BenchEngineFigure[], variant: string): BenchEngineFigure => {
  const f = figures.find((x) => x.variant === variant);
  if (f === undefined) throw new Error(`benchEngine.ts gave no ${variant} figure`);
  return f;
};

/** softmax and boltzmann of `model` on `backend`: one round's figures. */
function workload(model: string, backend: PeerBackend): WorkloadRound {
  const args = ['--model', model, '--variants', 'softmax,boltzmann', '--threads', threads];
  const { figures } = runBenchEngine([...args, '--steps', steps, '--backend', backend]);
  return {
    softmaxMs: pick(figures, 'softmax').msPerStep,
    transferMs: pick(figures, 'boltzmann').msPerStep,
  };
}

/** The transfer kernels' split of the baby step on one thread, or undefined where they do not run. */
function kernels(backend: PeerBackend): { round?: KernelRound; stepMs: number } {
  const args = ['--model', 'baby', '--variants', 'boltzmann', '--threads', '1', '--steps', '5'];
  const { figures } = runBenchEngine([...args, '--backend', backend]);
  const f = pick(figures, 'boltzmann');
  if (!f.transferMs || !f.transferGflop || !f.peakGflops) return { stepMs: f.msPerStep };
  const round = {
    ms: f.transferMs,
    gflop: f.transferGflop,
    peakGflops: f.peakGflops,
    peakName: f.peakName ?? '',
  };
  return { round, stepMs: f.msPerStep };
}

const figures = new Map<string, WorkloadRound[]>();
const kernelFigures = new Map<PeerBackend, { rounds: KernelRound[]; stepMs: number[] }>();
for (let r = 1; r <= rounds; r++) {
  for (const backend of backends) {
    for (const [key, model] of [
      ['baby', 'baby'],
      ['paper256', 'paper-256'],
    ] as const) {
      const round = workload(model, backend);
      figures.set(`${key} ${backend}`, [...(figures.get(`${key} ${backend}`) ?? []), round]);
      console.log(
        `round ${r}, ${backend}, ${model}: softmax ${round.softmaxMs.toFixed(1)} ms, transfer matrix ${round.transferMs.toFixed(1)} ms`,
      );
    }
    const k = kernels(backend);
    const seen = kernelFigures.get(backend) ?? { rounds: [], stepMs: [] };
    if (k.round) seen.rounds.push(k.round);
    seen.stepMs.push(k.stepMs);
    kernelFigures.set(backend, seen);
  }
}

console.log(`\n${TABLE_HEAD}`);
for (const backend of backends) {
  for (const key of ['baby', 'paper256'] as const)
    console.log(workloadRow(WORKLOADS[key], backend, figures.get(`${key} ${backend}`)!));
  const k = kernelFigures.get(backend)!;
  console.log(
    k.rounds.length > 0
      ? kernelRow(backend, k.rounds, median(k.stepMs))
      : `the transfer kernels in the baby step | ${backend} | not on this backend: the sampler's own float32 path runs | | | ≥ 70 %: not measured`,
  );
}
console.log(`\nload average at end: ${formatLoad(loadavg())}`);
