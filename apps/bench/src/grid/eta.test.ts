import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import {
  SECONDS_PER_RUN_SETUP,
  SECONDS_PER_WORKER_START,
  estimateGridSeconds,
  estimateRunSeconds,
  estimateStepMs,
  listSchedule,
  runOrder,
} from './eta.js';
import { expandGrid } from './expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { formatDuration, plainProgress } from './progress.js';

const grid = (...argv: string[]) => expandGrid(parseBenchArgs(argv, () => undefined)!);

describe('ETA model', () => {
  it('grows with steps, length and the sampler cost', () => {
    const [a] = grid('brackets', '--variants', 'boltzmann', '--lengths', '8', '--steps', '100');
    const [b] = grid('brackets', '--variants', 'boltzmann', '--lengths', '8', '--steps', '200');
    const [c] = grid('brackets', '--variants', 'boltzmann', '--lengths', '16', '--steps', '100');
    const [d] = grid('brackets', '--variants', 'softmax', '--lengths', '16', '--steps', '100');
    expect(estimateRunSeconds(b!)).toBeGreaterThan(estimateRunSeconds(a!));
    expect(estimateRunSeconds(c!)).toBeGreaterThan(estimateRunSeconds(a!));
    expect(estimateRunSeconds(c!)).toBeGreaterThan(estimateRunSeconds(d!));
  });

  it('counts every block and, for sampler variants, every (layer, head) Ising batch', () => {
    const gpt = (...argv: string[]) =>
      estimateRunSeconds(
        grid('gpt', '--steps', '100', '--eval-every', '100', '--warmup-steps', '10', ...argv)[0]!,
      );
    const one = gpt('--variants', 'softmax', '--layers', '1', '--heads', '1');
    expect(gpt('--variants', 'softmax', '--layers', '4', '--heads', '1')).toBeGreaterThan(2 * one);
    const tm = (layers: string, heads: string) =>
      gpt(
        '--variants',
        'boltzmann',
        '--sampler',
        'transfer-matrix',
        '--couplings',
        'banded:8',
        '--layers',
        layers,
        '--heads',
        heads,
      );
    expect(tm('2', '4')).toBeGreaterThan(1.5 * tm('1', '4'));
    expect(tm('1', '4')).toBeGreaterThan(1.5 * tm('1', '2'));
  });

  it('prices the attention scores: the JavaScript causal op (sigmoid) above softmax, more so at long T', () => {
    const step = (variant: string, length: string) =>
      estimateStepMs(
        grid('gpt', '--preset', 'long', '--variants', variant, '--lengths', length)[0]!,
      );
    expect(step('sigmoid', '256')).toBeGreaterThan(step('softmax', '256'));
    expect(step('sigmoid', '256') / step('softmax', '256')).toBeGreaterThan(
      step('sigmoid', '16') / step('softmax', '16'),
    );
  });

  it("prices the transfer matrix in float32 on the engine at its transfer kernels' rate", () => {
    const tm = (options: string[]) =>
      grid(
        'shakespeare',
        '--preset',
        'long',
        '--lengths',
        '256',
        '--variants',
        'boltzmann',
        '--sampler',
        'transfer-matrix',
        '--couplings',
        'banded:8',
        ...options,
      )[0]!;
    const f64 = tm(['--sampler-options', '{"threads":1}']);
    const f32 = tm(['--sampler-options', '{"threads":1,"precision":"float32"}']);
    // 1.4 ns a (query, key, state) against the sampler's 5.57 × 0.67: about 2.7× less work.
    expect(estimateStepMs(f32)).toBeLessThan(0.45 * estimateStepMs(f64));
    expect(estimateStepMs(f32)).toBeGreaterThan(0.3 * estimateStepMs(f64));
    // tfjs runs the sampler whatever its precision.
    expect(estimateStepMs(f32, { name: 'tfjs', threads: 1 })).toBe(
      estimateStepMs(f64, { name: 'tfjs', threads: 1 }),
    );
  });

  it('prices the engine (the default) below the tfjs path, and its threads shorten a step', () => {
    const [baby] = grid('gpt', '--preset', 'baby', '--variants', 'softmax');
    const engine = estimateStepMs(baby!);
    expect(estimateStepMs(baby!, { name: 'wasm', threads: 1 })).toBe(engine);
    expect(estimateStepMs(baby!, { name: 'tfjs', threads: 1 })).toBeGreaterThan(2.5 * engine);
    expect(estimateStepMs(baby!, { name: 'wasm', threads: 2 })).toBeLessThan(0.7 * engine);
    // A random sampler's work (gibbs), gathered on the calling thread, does not shrink with the
    // engine's threads; the fixed points' and the transfer matrix's, on every thread's shard,
    // shrink like the rest.
    const softmaxGain = estimateStepMs(baby!, { name: 'wasm', threads: 2 }) / engine;
    const gain = (sampler: string) => {
      const extra = sampler === 'transfer-matrix' ? ['--couplings', 'banded:8'] : [];
      const [c] = grid(
        'gpt',
        '--preset',
        'baby',
        '--variants',
        'boltzmann',
        '--sampler',
        sampler,
        ...extra,
      );
      return estimateStepMs(c!, { name: 'wasm', threads: 2 }) / estimateStepMs(c!);
    };
    expect(gain('gibbs')).toBeGreaterThan(softmaxGain);
    expect(gain('gibbs')).toBeGreaterThan(0.9);
    expect(gain('transfer-matrix')).toBeCloseTo(softmaxGain, 1);
    expect(gain('tap')).toBeCloseTo(softmaxGain, 1);
    expect(gain('mean-field')).toBeCloseTo(softmaxGain, 1);
    // The engine prices an approximate sampler below the tfjs-era fit.
    const [tap] = grid('gpt', '--preset', 'baby', '--variants', 'boltzmann', '--sampler', 'tap');
    expect(estimateStepMs(tap!, { name: 'tfjs', threads: 1 })).toBeGreaterThan(
      1.4 * estimateStepMs(tap!),
    );
    // A run's and a grid's estimate carry the path too.
    expect(estimateRunSeconds(baby!, { name: 'tfjs', threads: 1 })).toBeGreaterThan(
      2.5 * estimateRunSeconds(baby!),
    );
    const runs = [{ config: baby! }];
    expect(estimateGridSeconds(runs, 1, { name: 'wasm', threads: 2 })).toBeLessThan(
      estimateGridSeconds(runs, 1),
    );
  });

  it('schedules longest-first on the least-loaded worker', () => {
    const runs = grid(
      'shakespeare',
      '--lengths',
      '4',
      '--variants',
      'softmax',
      '--seeds',
      '0,1,2,3',
    );
    // Each run: its record's time plus its set-up; each worker process: its start-up, once.
    const one = estimateRunSeconds(runs[0]!) + SECONDS_PER_RUN_SETUP;
    const wall = (workers: number, doneFraction = 0) =>
      estimateGridSeconds(
        runs.map((config) => ({ config, doneFraction })),
        workers,
      );
    expect(wall(2)).toBeCloseTo(SECONDS_PER_WORKER_START + 2 * one, 9);
    expect(wall(1)).toBeCloseTo(SECONDS_PER_WORKER_START + 4 * one, 9);
    // A resumed run halves its training, not its set-up.
    expect(wall(4, 0.5)).toBeCloseTo(
      SECONDS_PER_WORKER_START + SECONDS_PER_RUN_SETUP + estimateRunSeconds(runs[0]!) / 2,
      9,
    );
  });

  it('orders resumed runs first, then the longest remaining work, and plans in that order', () => {
    const [short, long] = grid('shakespeare', '--lengths', '4,16', '--variants', 'softmax');
    expect(estimateRunSeconds(long!)).toBeGreaterThan(estimateRunSeconds(short!));
    const fresh = (config: typeof short) => ({ config: config!, doneFraction: 0, name: 'fresh' });
    const runs = [
      fresh(short),
      { config: short!, doneFraction: 0.9, name: 'short, 90 % done' },
      fresh(long),
      { config: long!, doneFraction: 0.2, name: 'long, 20 % done' },
    ];
    expect(runOrder(runs).map((r) => `${r.name} ${r.config.length}`)).toEqual([
      'long, 20 % done 16',
      'short, 90 % done 4',
      'fresh 16',
      'fresh 4',
    ]);
    // One worker: the order changes nothing; two: the plan is the list schedule of that order.
    const cost = (r: (typeof runs)[number]) =>
      SECONDS_PER_RUN_SETUP + estimateRunSeconds(r.config) * (1 - r.doneFraction);
    const ordered = runOrder(runs).map(cost);
    expect(estimateGridSeconds(runs, 2)).toBeCloseTo(
      listSchedule(ordered, [SECONDS_PER_WORKER_START, SECONDS_PER_WORKER_START]),
      9,
    );
  });

  it('counts worker start-up once per process started, and nothing for an empty grid', () => {
    const runs = grid('shakespeare', '--lengths', '4', '--variants', 'softmax', '--seeds', '0,1');
    const run = estimateRunSeconds(runs[0]!);
    // More workers than runs: only two processes start, in parallel.
    const wall = estimateGridSeconds(
      runs.map((config) => ({ config })),
      8,
    );
    expect(wall - run).toBeGreaterThanOrEqual(2.5);
    expect(wall).toBeCloseTo(SECONDS_PER_WORKER_START + SECONDS_PER_RUN_SETUP + run, 9);
    expect(estimateGridSeconds([], 2)).toBe(0);
  });
});

describe('progress', () => {
  it('formats durations', () => {
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(185)).toBe('3m05s');
    expect(formatDuration(3 * 3600 + 120)).toBe('3h02m');
    expect(formatDuration(Number.NaN)).toBe('?');
  });

  it('prints plain lines: start, throttled steps, end', () => {
    const lines: string[] = [];
    const p = plainProgress((l) => lines.push(l), 0);
    p.start('a', 'shakespeare softmax T=4', 100, 40);
    p.update({ id: 'a', step: 50, steps: 100, loss: 2.5, stepsPerSecond: 10 });
    p.end('a', 'perplexity 11.0000 (10s)');
    expect(lines).toEqual([
      'start  shakespeare softmax T=4 (resuming at step 40/100)',
      'step   shakespeare softmax T=4 50/100 loss 2.5000 10.0 steps/s ETA 5s',
      'end    shakespeare softmax T=4: perplexity 11.0000 (10s)',
    ]);
    const quiet: string[] = [];
    const q = plainProgress((l) => quiet.push(l), 60_000);
    q.start('b', 'x', 10, 0);
    q.update({ id: 'b', step: 1, steps: 10, loss: 1, stepsPerSecond: 1 });
    expect(quiet).toEqual(['start  x (10 steps)']);
  });
});
