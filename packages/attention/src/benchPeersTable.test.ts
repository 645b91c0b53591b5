import { describe, expect, it } from 'vitest';
import {
  combineRounds,
  formatLoad,
  formatPeerTable,
  median,
  parseBenchEngine,
  parseBenchTraining,
  parseNanoGptIterations,
  parseTwin,
  speedRatio,
} from '../bench/peers/peerTable.js';
import { blasVerdict } from '../bench/peers/peerConfigs.js';

describe('the peer benchmark helpers (scripts/benchPeers.ts)', () => {
  it("reads benchEngine.ts's JSON lines and skips everything else", () => {
    const line = {
      model: 'paper',
      variant: 'softmax',
      threads: 2,
      msPerStep: 11,
      stepsPerSecond: 90.9,
    };
    expect(
      parseBenchEngine(`load average …\n${JSON.stringify(line)}\n{broken\n{"variant":1}`),
    ).toEqual([line]);
  });

  it('reads the per-variant medians that benchTraining.ts prints', () => {
    const text = [
      'paper: 1 layer(s) × 1 head(s), d_model 64, batch 64, T = 12',
      '',
      'softmax: 32.7 steps/s (median 30.6 ms/step over 40); 2,000 iterations ≈ 61 s',
      '  achieved 8.3 GFLOP/s of matrix work = 27 % of the matmul peak; 300 tfjs kernels',
      'boltzmann (exact, 1 thread): 31.2 steps/s (median 32.0 ms/step over 40); 2,000 …',
    ].join('\n');
    expect(parseBenchTraining(text)).toEqual([
      { variant: 'softmax', stepsPerSecond: 32.7, msPerStep: 30.6 },
      { variant: 'boltzmann', stepsPerSecond: 31.2, msPerStep: 32 },
    ]);
    expect(parseBenchTraining('nothing here')).toEqual([]);
  });

  it("reads the twin's JSON line and tells the reference BLAS from OpenBLAS", () => {
    const line = JSON.stringify({
      peer: 'pytorch-twin',
      variant: 'softmax',
      threads: 1,
      msPerStep: 11,
      stepsPerSecond: 90.9,
      torch: '1.13.0a0',
      blas: ['/usr/lib/x86_64-linux-gnu/blas/libblas.so.3'],
    });
    const twin = parseTwin(`a warning\n${line}\n`)!;
    expect(twin.stepsPerSecond).toBe(90.9);
    expect(blasVerdict(twin.blas).kind).toBe('reference');
    const open = { ...twin, blas: ['/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3'] };
    expect(blasVerdict(open.blas).kind).toBe('openblas');
    expect(parseTwin('{"not": "json"\nTraceback')).toBeUndefined();
  });

  it("takes nanoGPT's median time per iteration after the first five", () => {
    const log = [0, 1, 2, 3, 4, 5, 6, 7, 8]
      .map((i) => `iter ${i}: loss 3.7, time ${i < 5 ? 900 : 100 + i}.00ms, mfu 0.01%`)
      .join('\n');
    expect(parseNanoGptIterations(log)).toBe(106.5);
    expect(parseNanoGptIterations('step 0: train loss 4.2')).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
  });

  it('lays out the table with speed ratios the right way up for rates and times', () => {
    const rate = { workload: 'w', unit: 'steps/s', here: 20, peer: 80, peerName: 'p' } as const;
    const time = { ...rate, unit: 'ms/iteration', here: 400, peer: 100 } as const;
    expect(speedRatio(rate)).toBe(0.25);
    expect(speedRatio(time)).toBe(0.25);
    expect(speedRatio({ ...rate, peer: undefined })).toBeUndefined();
    const table = formatPeerTable([rate, { ...time, peer: undefined }]);
    expect(table.split('\n')).toEqual([
      '| workload | here | peer | ratio | goal |',
      '|---|---|---|---|---|',
      '| w | 20.0 steps/s (tfjs-wasm) | 80.0 steps/s (p) | 0.25× |  |',
      '| w | 400 ms/iteration (tfjs-wasm) | — (not run) | — |  |',
    ]);
    const goals = formatPeerTable([
      { ...rate, hereName: 'engine', goal: 0.2 },
      { ...rate, goal: 1 },
      { ...time, peer: undefined, goal: 0.5 },
    ]);
    expect(goals.split('\n').slice(2)).toEqual([
      '| w | 20.0 steps/s (engine) | 80.0 steps/s (p) | 0.25× | ≥ 0.20×: met |',
      '| w | 20.0 steps/s (tfjs-wasm) | 80.0 steps/s (p) | 0.25× | ≥ 1.00×: missed |',
      '| w | 400 ms/iteration (tfjs-wasm) | — (not run) | — | ≥ 0.50×: not measured |',
    ]);
    expect(formatLoad([0.75, 1.391, 2.3])).toBe('0.75, 1.39, 2.30');
  });

  it('combines rounds: medians of the figures, the median of the side-by-side ratios, their range', () => {
    const row = (here: number, peer: number) => ({
      workload: 'paper model T = 12, softmax, one core',
      unit: 'steps/s' as const,
      here,
      peer,
      peerName: 'PyTorch twin, 1 thread',
      hereName: 'engine, 1 thread',
      goal: 1,
    });
    const time = (here: number) => ({
      workload: 'baby',
      unit: 'ms/iteration' as const,
      here,
      peer: 120,
      peerName: 'nanoGPT',
    });
    // Round ratios 0.8, 1.2 and 1.1: the median 1.1 meets the goal though one round missed it.
    const rows = combineRounds([
      [row(120, 150), time(60)],
      [row(180, 150), time(80)],
      [row(110, 100)],
    ]);
    expect(rows[0]).toMatchObject({ here: 120, peer: 150 });
    expect(rows[0]!.rounds!.map((x) => x.toFixed(2))).toEqual(['0.80', '1.20', '1.10']);
    const table = formatPeerTable(rows);
    expect(table).toContain('| 1.10× (0.80–1.20 over 3 rounds) | ≥ 1.00×: met |');
    // A row missing from a round is combined from the rounds that have it.
    expect(rows[1]).toMatchObject({ here: 70, peer: 120, rounds: [2, 1.5] });
    expect(table).toContain('| 1.75× (1.50–2.00 over 2 rounds) |');
    expect(combineRounds([])).toEqual([]);
  });
});
