// The whole-process rows of scripts/benchPeers.ts (issue 38): GPT `baby` softmax trained by the
// `bench gpt` CLI against nanoGPT's train.py, each timed from spawn to exit, so that start-up,
// data loading and evaluation count as a user sees them, not only the median iteration.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeConfig, fastestConfig } from './peerConfigs.js';
import type { BlasVerdict, ThreadConfig } from './peerConfigs.js';
import { NATIVE_GOALS, backendGoal, engineHereName } from './peerBackends.js';
import type { PeerBackend } from './peerBackends.js';
import type { PeerRow } from './peerTable.js';
import { run, runNanoGptProcess } from './runPeers.js';

const REPO = fileURLToPath(new URL('../../../..', import.meta.url));
const BENCH_CLI = join(REPO, 'apps', 'bench', 'bin', 'bench.mjs');

/** A `bench gpt` process: spawn to exit, and its run's median loop iteration (undefined: none recorded). */
export interface BenchGptProcess {
  readonly seconds: number;
  readonly medianStepMs: number | undefined;
}

/** The one run record's `timing.medianStepMs` in a results folder. */
function recordMedianStepMs(results: string): number | undefined {
  const [file] = readdirSync(join(results, 'runs'));
  if (file === undefined) return undefined;
  const record = JSON.parse(readFileSync(join(results, 'runs', file), 'utf8')) as {
    timing?: { medianStepMs?: number };
  };
  return record.timing?.medianStepMs;
}

/**
 * `bench gpt --preset baby --variants softmax` as one run in its own process (`--workers 0`)
 * with the engine on `backend` (`--engine-backend`) and `threads` threads, `steps` steps, evaluated (20 batches a split, nanoGPT's
 * eval_iters) before the first step and at the end only: seconds from spawn to exit and its
 * record's median loop iteration (`timing.medianStepMs`: a step with the bench's loop around
 * it, no evaluation), or its error output. Its results go to a temporary folder, removed afterwards.
 */
export function runBenchGptProcess(
  steps: number,
  threads: number,
  input: string,
  backend: PeerBackend,
): BenchGptProcess | string {
  const results = mkdtempSync(join(tmpdir(), 'bench-gpt-'));
  const args = [
    BENCH_CLI,
    'gpt',
    '--preset',
    'baby',
    '--variants',
    'softmax',
    '--seeds',
    '0',
    '--steps',
    String(steps),
    // The preset's 100 warm-up steps must lie below the run's steps; the rate does not matter here.
    '--warmup-steps',
    String(Math.min(100, steps - 1)),
    '--eval-every',
    String(steps),
    '--checkpoint-every',
    String(steps),
    '--eval-batches',
    '20',
    '--workers',
    '0',
    '--engine-threads',
    String(threads),
    '--engine-backend',
    backend,
    '--plain',
    '--data',
    input,
    '--results',
    results,
  ];
  try {
    const r = run(process.execPath, args, REPO);
    if (r.status !== 0)
      return `bench gpt failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`;
    return { seconds: r.seconds, medianStepMs: recordMedianStepMs(results) };
  } finally {
    rmSync(results, { recursive: true, force: true });
  }
}

/** The engine's thread counts worth trying: one, and every core. */
export const engineThreadChoices = (cores: number): number[] => (cores > 1 ? [1, cores] : [1]);

/**
 * The engine's fastest thread count on `backend` for the whole-process row: each choice runs
 * `steps` steps once as a whole process (printed), the shortest wins; undefined when none ran.
 */
export function tuneBenchGpt(
  steps: number,
  cores: number,
  input: string,
  backend: PeerBackend,
): number | undefined {
  const trials = engineThreadChoices(cores).map((threads) => {
    const p = runBenchGptProcess(steps, threads, input, backend);
    const shown = typeof p === 'string' ? p : `${p.seconds.toFixed(1)} s`;
    console.log(
      `  bench gpt --engine-backend ${backend}, engine ${threads} thread(s), ${steps} steps, whole process: ${shown}`,
    );
    return { config: threads, ms: typeof p === 'string' ? p : p.seconds };
  });
  return fastestConfig(trials);
}

/** One backend of the whole-process rows. */
export interface WholeProcessEngine {
  readonly backend: PeerBackend;
  /** Its tuned engine threads (undefined: no trial ran). */
  readonly threads: number | undefined;
  /** scripts/benchEngine.ts's median softmax step this round on this backend, and its threads. */
  readonly engineStep?: { readonly threads: number; readonly ms: number } | undefined;
}

/** What the whole-process rows need: each backend's tuned engine threads and nanoGPT's configuration. */
export interface WholeProcessSetup {
  readonly iterations: number;
  /** The backends, each with its tuned threads (undefined: no trial ran). */
  readonly engines: readonly WholeProcessEngine[];
  /** The native ISA `bench gpt` runs on (`--engine-backend native`). */
  readonly nativeIsa: string | undefined;
  readonly python: string;
  readonly work: string;
  readonly config: ThreadConfig | undefined;
  readonly blas: BlasVerdict;
  readonly input: string;
}

/**
 * The bench's own cost a step (issue 40 point 3): a GPT `baby` step inside `bench gpt`, its loop
 * included (batch, records, progress, the stop poll; its evaluations and checkpoints left out),
 * against the same step in scripts/benchEngine.ts on the same backend and threads: the median
 * iteration the run's record gives (`timing.medianStepMs`) against the benchmark's median step.
 */
function benchStepRow(e: WholeProcessEngine, full: BenchGptProcess | string | undefined): PeerRow {
  const sameThreads = e.threads !== undefined && e.threads === e.engineStep?.threads;
  return {
    workload:
      'GPT `baby` softmax, a step inside `bench gpt` (its median loop iteration) against the same step in scripts/benchEngine.ts',
    unit: 'ms/iteration',
    hereName: `bench gpt --engine-backend ${e.backend}, ${e.threads ?? '?'} thread(s)`,
    here: typeof full === 'object' ? full.medianStepMs : undefined,
    peer: sameThreads ? e.engineStep?.ms : undefined,
    peerName: sameThreads
      ? `scripts/benchEngine.ts, ${e.engineStep!.threads} thread(s), median step`
      : 'scripts/benchEngine.ts at the same thread count: not measured this round',
    goal: 1 / 1.05,
  };
}

/**
 * One round's whole-process rows: nanoGPT's train.py once, and `bench gpt` once per backend
 * (`--engine-backend`), one process after the other, each row beside the same nanoGPT figure;
 * and per backend the bench's own cost a step ({@link benchStepRow}).
 */
export function wholeProcessRows(s: WholeProcessSetup): PeerRow[] {
  const peer =
    s.config === undefined
      ? undefined
      : runNanoGptProcess(s.work, s.python, s.iterations, s.config);
  if (typeof peer === 'string') console.log(peer);
  return s.engines.flatMap((e) => {
    const { backend, threads } = e;
    const here =
      threads === undefined
        ? undefined
        : runBenchGptProcess(s.iterations, threads, s.input, backend);
    if (typeof here === 'string') console.log(here);
    const engine =
      threads === undefined
        ? `engine ${backend}, no trial ran`
        : engineHereName(backend, s.nativeIsa, threads);
    const whole = {
      workload: `GPT \`baby\` softmax, ${s.iterations} iterations as a whole process (spawn to exit, evaluated at both ends)`,
      unit: 's',
      hereName: `bench gpt --workers 0 --engine-backend ${backend}: ${engine}`,
      here: typeof here === 'object' ? here.seconds : undefined,
      peer: typeof peer === 'number' ? peer : undefined,
      peerName: `nanoGPT train.py, ${s.config === undefined ? 'no configuration ran' : describeConfig(s.config, s.blas)}`,
      invalid: s.blas.kind === 'reference' ? 'reference BLAS' : undefined,
      ...backendGoal(backend, NATIVE_GOALS.wholeProcess),
    } satisfies PeerRow;
    return [whole, benchStepRow(e, here)];
  });
}
