// The child processes of scripts/benchPeers.ts: this package's benchTraining.ts, the PyTorch
// twin of the paper model, and a nanoGPT checkout on Tiny Shakespeare prepared offline.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
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
import { blasVerdict, peerEnv } from './peerConfigs.js';
import type { BlasVerdict, ThreadConfig } from './peerConfigs.js';
import { parseTorchGemm } from './roofline.js';
import type { TorchGemmFigure } from './roofline.js';

const PEERS = fileURLToPath(new URL('.', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

/** A finished child: its exit status, output, and wall time from spawn to exit. */
interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

/** `command` to its exit, in `env` (the whole environment; default this process's). */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Run {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - start) / 1000;
  const status = r.error ? null : r.status;
  return { status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', seconds };
}

const ONE_THREAD: ThreadConfig = { torch: 1, omp: 1, openblas: 1 };

// After a product, so that a BLAS loaded lazily is mapped too; BLAS_INFO names a static MKL.
const BLAS_PROBE = `import json, torch
a = torch.randn(64, 64); (a @ a).sum().item()
maps = [line.split() for line in open('/proc/self/maps')]
libs = sorted({f[-1] for f in maps if len(f) > 5 and 'blas' in f[-1]})
info = [w[10:] for w in torch.__config__.show().replace(',', ' ').split() if w.startswith('BLAS_INFO=')]
print(json.dumps({'torch': torch.__version__, 'blas': libs, 'blasInfo': (info or [''])[0]}))`;

/**
 * The first of `candidates` that imports torch (Debian's `python3-torch` installs for
 * /usr/bin/python3, which a pyenv `python3` on the PATH may hide), with torch's version and the
 * BLAS it really calls (in a peer's environment: the machine's OpenBLAS pinning removed).
 */
export function findTorchPython(
  candidates: readonly string[],
): { python: string; torch: string; blas: BlasVerdict; libraries: string[] } | undefined {
  for (const python of candidates) {
    const r = run(python, ['-c', BLAS_PROBE], PACKAGE, peerEnv(process.env, ONE_THREAD));
    if (r.status !== 0) continue;
    const v = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
      torch: string;
      blas: string[];
      blasInfo: string;
    };
    return { python, torch: v.torch, blas: blasVerdict(v.blas, v.blasInfo), libraries: v.blas };
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

/** The PyTorch twin (`paper_twin.py`) in thread configuration `config`: its figure, or its error output. */
export function runTwin(
  python: string,
  variant: string,
  steps: number,
  config: ThreadConfig,
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
      String(config.torch),
    ],
    PEERS,
    peerEnv(process.env, config),
  );
  return parseTwin(r.stdout) ?? `paper_twin.py failed (${r.status}): ${r.stderr.slice(-2000)}`;
}

/** PyTorch's own products at the paper's shapes on `threads` threads (torch_gemm.py), or its error. */
export function runTorchGemm(python: string, threads: number): TorchGemmFigure | string {
  const script = join(PEERS, 'torch_gemm.py');
  const config = { torch: threads, omp: threads, openblas: 1 };
  const r = run(
    python,
    [script, '--threads', String(threads)],
    PEERS,
    peerEnv(process.env, config),
  );
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
 * nanoGPT's train.py in the README's CPU "baby" configuration for `iterations` iterations
 * (iterations 0 to `iterations`, as train.py counts), evaluating at iteration 0 and, with
 * `evalInterval`, every so many.
 */
function nanoGptArgs(iterations: number, evalInterval?: number): string[] {
  return [
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
    ...(evalInterval === undefined ? [] : [`--eval_interval=${evalInterval}`]),
  ];
}

/**
 * The nanoGPT README's CPU "baby" run for `iterations` iterations in thread configuration
 * `config` (train.py sets no thread count: torch takes OMP_NUM_THREADS): its median
 * ms/iteration (iterations 5 and later), or its error output.
 */
export function runNanoGpt(
  work: string,
  python: string,
  iterations: number,
  config: ThreadConfig,
): number | string {
  const r = run(python, nanoGptArgs(iterations), work, peerEnv(process.env, config));
  const ms = parseNanoGptIterations(r.stdout);
  return ms ?? `nanoGPT train.py failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`;
}

/**
 * nanoGPT's train.py as a whole process, `iterations` (at least 2) iterations evaluated at both
 * ends (as `bench gpt` evaluates its run): seconds from spawn to exit, or its error output.
 */
export function runNanoGptProcess(
  work: string,
  python: string,
  iterations: number,
  config: ThreadConfig,
): number | string {
  // train.py runs iterations 0 to max_iters inclusive and evaluates before the iteration.
  const args = nanoGptArgs(iterations - 1, iterations - 1);
  const r = run(python, args, work, peerEnv(process.env, config));
  return r.status === 0
    ? r.seconds
    : `nanoGPT train.py failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`;
}
