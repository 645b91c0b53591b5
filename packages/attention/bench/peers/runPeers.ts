// The child processes of scripts/benchPeers.ts: this package's benchTraining.ts, the PyTorch
// twin of the paper model, and a nanoGPT checkout on Tiny Shakespeare prepared offline.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  parseBenchEngine,
  parseBenchTraining,
  parseNanoGptIterations,
  parseTwin,
} from './peerTable.js';
import type { BenchEngineFigure, BenchTrainingFigure, TwinFigure } from './peerTable.js';
import { parseTorchGemm } from './roofline.js';
import type { TorchGemmFigure } from './roofline.js';

const PEERS = fileURLToPath(new URL('.', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

/** A finished child: its exit status and output. */
interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Run {
  const r = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.error ? null : r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** The environment that keeps every BLAS and OpenMP pool of a Python child to `threads` threads. */
export function threadEnv(threads: number): NodeJS.ProcessEnv {
  const n = String(threads);
  return { OMP_NUM_THREADS: n, OPENBLAS_NUM_THREADS: n, MKL_NUM_THREADS: n };
}

/**
 * The first of `candidates` that imports torch (Debian's `python3-torch` installs for
 * /usr/bin/python3, which a pyenv `python3` on the PATH may hide), with torch's version.
 */
export function findTorchPython(
  candidates: readonly string[],
): { python: string; torch: string } | undefined {
  for (const python of candidates) {
    const r = run(python, ['-c', 'import torch; print(torch.__version__)'], PACKAGE);
    if (r.status === 0) return { python, torch: r.stdout.trim() };
  }
  return undefined;
}

/**
 * `scripts/benchTraining.ts` with `args` in a child Node (the flags of `pnpm bench`): its
 * per-variant median steps and its whole report (the split of a step, the roofline). Throws
 * with its stderr when it fails.
 */
export function runBenchTraining(args: readonly string[]): {
  figures: BenchTrainingFigure[];
  report: string;
} {
  const r = run(
    process.execPath,
    [
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      '--conditions=@boltzmann/source',
      'scripts/benchTraining.ts',
      ...args,
    ],
    PACKAGE,
  );
  const figures = parseBenchTraining(r.stdout);
  if (r.status !== 0 || figures.length === 0) {
    throw new Error(`benchTraining.ts ${args.join(' ')} failed:\n${r.stderr || r.stdout}`);
  }
  return { figures, report: r.stdout.trim() };
}

/**
 * `scripts/<script> --json` with `args` in a child Node (benchEngine.ts, benchScaling.ts): its
 * figures and its whole report. Throws with its stderr when it fails.
 */
function runEngineScript(
  script: string,
  args: readonly string[],
): { figures: BenchEngineFigure[]; report: string } {
  const node = ['--import', 'tsx', '--conditions=@boltzmann/source', `scripts/${script}`];
  const r = run(process.execPath, [...node, ...args, '--json'], PACKAGE);
  const figures = parseBenchEngine(r.stdout);
  if (r.status !== 0 || figures.length === 0)
    throw new Error(`${script} ${args.join(' ')} failed:\n${r.stderr || r.stdout}`);
  const report = r.stdout
    .split('\n')
    .filter((line) => !line.startsWith('{'))
    .join('\n');
  return { figures, report: report.trim() };
}

/** `scripts/benchEngine.ts` with `args`: its per-variant figures and report (the split of a step by kernel). */
export const runBenchEngine = (args: readonly string[]) => runEngineScript('benchEngine.ts', args);

/**
 * `scripts/benchScaling.ts` with `args`: one figure per thread count (1 and `--threads`), each the
 * median of its windows, measured in alternating windows of one process.
 */
export const runBenchScaling = (args: readonly string[]) =>
  runEngineScript('benchScaling.ts', args);

/** The PyTorch twin (`paper_twin.py`) on `threads` threads: its figure, or its error output. */
export function runTwin(
  python: string,
  variant: string,
  steps: number,
  threads: number,
): TwinFigure | string {
  const r = run(
    python,
    [
      join(PEERS, 'paper_twin.py'),
      '--variant',
      variant,
      '--steps',
      String(steps),
      '--threads',
      String(threads),
    ],
    PEERS,
    threadEnv(threads),
  );
  return parseTwin(r.stdout) ?? `paper_twin.py failed (${r.status}): ${r.stderr.slice(-2000)}`;
}

/** PyTorch's own products at the paper's shapes on `threads` threads (torch_gemm.py), or its error. */
export function runTorchGemm(python: string, threads: number): TorchGemmFigure | string {
  const script = join(PEERS, 'torch_gemm.py');
  const r = run(python, [script, '--threads', String(threads)], PEERS, threadEnv(threads));
  return parseTorchGemm(r.stdout) ?? `torch_gemm.py failed (${r.status}): ${r.stderr.slice(-2000)}`;
}

const NANOGPT_FILES = ['train.py', 'model.py', 'configurator.py', 'config'];

/**
 * A temporary nanoGPT working folder: the checkout's train.py, model.py, configurator.py and
 * config/ (from a work tree, or `git archive HEAD` of a bare mirror such as the one `fetch`
 * writes to /work/.mirror/karpathy+nanoGPT/repo), and data/shakespeare_char prepared from the
 * local `input` (no download).
 */
export function prepareNanoGpt(checkout: string, input: string, python: string): string {
  const work = mkdtempSync(join(tmpdir(), 'nanogpt-'));
  if (existsSync(join(checkout, 'train.py'))) {
    for (const f of NANOGPT_FILES) cpSync(join(checkout, f), join(work, f), { recursive: true });
  } else {
    const r = run(
      'sh',
      ['-c', 'git --git-dir "$1" archive HEAD | tar -x -C "$0"', work, checkout],
      PACKAGE,
    );
    if (!existsSync(join(work, 'train.py'))) {
      throw new Error(
        `${checkout} is neither a nanoGPT work tree nor its git repository: ${r.stderr}`,
      );
    }
  }
  const prep = run(
    python,
    [join(PEERS, 'prepare_shakespeare_char.py'), input, join(work, 'data', 'shakespeare_char')],
    work,
  );
  if (prep.status !== 0) throw new Error(`preparing nanoGPT's data failed: ${prep.stderr}`);
  return work;
}

/**
 * The nanoGPT README's CPU "baby" run for `iterations` iterations on `threads` threads: its
 * median ms/iteration (iterations 5 and later), or its error output.
 */
export function runNanoGpt(
  work: string,
  python: string,
  iterations: number,
  threads: number,
): number | string {
  const args = [
    'train.py',
    'config/train_shakespeare_char.py',
    '--device=cpu',
    '--compile=False',
    '--eval_iters=20',
    '--log_interval=1',
    '--block_size=64',
    '--batch_size=12',
    '--n_layer=4',
    '--n_head=4',
    '--n_embd=128',
    `--max_iters=${iterations}`,
    `--lr_decay_iters=${iterations}`,
    '--dropout=0.0',
  ];
  const r = run(python, args, work, threadEnv(threads));
  const ms = parseNanoGptIterations(r.stdout);
  return ms ?? `nanoGPT train.py failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`;
}
