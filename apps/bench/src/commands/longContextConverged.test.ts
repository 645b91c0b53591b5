// `bench long-context --converged`: issue 41's converged slices (early stopping, T = 64-256), and
// `--slices`, which runs some slices of either set by the numbers the dry run prints.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { parseCommandLine } from '../cli/program.js';
import { expandGrid } from '../grid/expandGrid.js';
import { CONVERGED_SET } from '../experiments/longContextConvergedSlices.js';
import type { LongContextSlice } from '../experiments/longContextSlices.js';
import { LONG_CONTEXT_SET } from '../experiments/longContextSlices.js';
import { longContextCommand } from './longContext.js';

const dryRun = async (...argv: string[]) => {
  const out: string[] = [];
  const root = mkdtempSync(join(tmpdir(), 'bench-converged-'));
  const code = await main(['long-context', ...argv, '--root', root, '--dry-run'], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out };
};
const parse = (...argv: string[]) =>
  parseCommandLine([longContextCommand], ['long-context', ...argv], () => {})!.command;
/** The runs of some slices, as their grids expand them. */
const runsOf = (slices: readonly LongContextSlice[]) =>
  slices.flatMap((s) =>
    expandGrid(parseBenchArgs([...s.argv, '--results', '/tmp/x'], () => undefined)!),
  );
const partSlices = (part: string) => CONVERGED_SET.slices.filter((s) => s.part === part);

describe('bench long-context --converged', () => {
  it('is the paper model at T = 64, 128, 256, every variant, the banded transfer matrix, seeds 0-2, early stopping', () => {
    const runs = runsOf(partSlices('shakespeare'));
    expect(runs).toHaveLength(27);
    const cells = new Set(runs.map((c) => `${c.length} ${c.variant} ${c.seed}`));
    expect(cells.size).toBe(27);
    for (const c of runs) {
      expect([64, 128, 256]).toContain(c.length);
      expect(c).toMatchObject({ dModel: 64, heads: 1, batchSize: 1024 / c.length });
      expect(c.layers).toBeUndefined();
      expect(c.earlyStop).toEqual({
        patience: 8,
        minDelta: 0.001,
        lrDecays: 2,
        lrDecayFactor: 0.1,
      });
      expect([c.steps, c.evalEvery, c.lr, c.minLrFraction]).toEqual([40_000, 250, 3e-3, 1]);
      if (c.variant === 'boltzmann')
        expect(c).toMatchObject({ sampler: 'transfer-matrix', couplingForm: 'banded:8' });
    }
    expect(new Set(runs.map((c) => c.variant))).toEqual(
      new Set(['softmax', 'sigmoid', 'boltzmann']),
    );
    // The same banded J form as issue 13's transfer-matrix runs, its messages in float32 (the
    // engine's own transfer kernels).
    const earlier = expandGrid(
      parseBenchArgs([...LONG_CONTEXT_SET.slices[0]!.argv], () => undefined)!,
    );
    const tm = earlier.find((c) => c.variant === 'boltzmann')!;
    const converged = runs.find((c) => c.variant === 'boltzmann')!;
    expect([converged.couplingForm, converged.samplerOptions]).toEqual([
      tm.couplingForm,
      { ...tm.samplerOptions, precision: 'float32' },
    ]);
  });

  it("has MQAR's part: T = 64, 128 × 4-32 pairs (4 · pairs ≤ T), every variant, the same transfer matrix, seeds 0-2, the plateau protocol on accuracy", () => {
    const slices = partSlices('recall');
    expect(slices).toHaveLength(12);
    expect(new Set(slices.map((s) => s.folder))).toEqual(new Set(['recall']));
    const runs = runsOf(slices);
    const expected = [64, 128].flatMap((T) =>
      [4, 8, 16, 32]
        .filter((n) => 4 * n <= T)
        .flatMap((n) =>
          ['softmax', 'sigmoid', 'boltzmann'].flatMap((v) =>
            [0, 1, 2].map((s) => `${T} ${n} ${v} ${s}`),
          ),
        ),
    );
    expect(expected).toHaveLength(63);
    expect(
      runs.map((c) => `${c.length} ${c.recall?.kvPairs} ${c.variant} ${c.seed}`).sort(),
    ).toEqual(expected.sort());
    const shakespeareTm = runsOf(partSlices('shakespeare')).find((c) => c.variant === 'boltzmann')!;
    for (const c of runs) {
      expect(c).toMatchObject({
        experiment: 'recall',
        dataset: 'mqar',
        dModel: 64,
        heads: 1,
        layers: 2,
        batchSize: 64,
      });
      expect(c.recall).toEqual({
        vocabSize: 256,
        kvPairs: c.recall!.kvPairs,
        powerA: 0.01,
        trainExamples: 100_000,
        testExamples: 3000,
        warmupSteps: 250,
      });
      expect(c.earlyStop).toEqual({
        patience: 4,
        minDelta: 0.001,
        lrDecays: 2,
        lrDecayFactor: 0.1,
      });
      expect([c.steps, c.evalEvery, c.lr, c.minLrFraction]).toEqual([40_000, 250, 1e-3, 1]);
      if (c.variant === 'boltzmann')
        expect([c.sampler, c.couplingForm, c.samplerOptions]).toEqual([
          shakespeareTm.sampler,
          shakespeareTm.couplingForm,
          shakespeareTm.samplerOptions,
        ]);
    }
    // A slice is one seed's: each finished seed is a whole replicate of the 21 cells.
    for (const s of slices) expect(new Set(runsOf([s]).map((c) => c.seed)).size).toBe(1);
  });

  it('dry-runs its slices into their own root, with the estimate named an upper bound', async () => {
    const { code, out } = await dryRun('--converged');
    expect(code).toBe(0);
    const heads = out.filter((l) => l.trimStart().startsWith('== slice'));
    expect(heads).toHaveLength(15);
    expect(heads.filter((l) => /\(shakespeare\): bench shakespeare /.test(l))).toHaveLength(3);
    const recall = heads.filter((l) => /\(recall\): bench recall /.test(l));
    expect(recall).toHaveLength(12);
    for (const l of recall) expect(l).toMatch(/--results \S+\/recall --dry-run$/);
    expect(out.at(-1)?.trimStart()).toMatch(
      /^total: 90 runs to train in 15 slices, ≈ \S+ \(the slices' estimates added; rough, ±50 %; an upper bound: each run counted to its step cap/,
    );
    const only = await dryRun('--converged', '--only', 'recall');
    expect(only.out.filter((l) => l.trimStart().startsWith('== slice'))[0]).toMatch(
      /== slice 4\/15 \(recall\): bench recall --preset paper --vocab-size 256 --lengths 64 --kv-pairs 4,8,16 /,
    );
    expect(only.out.at(-1)?.trimStart()).toMatch(/^total: 63 runs to train in 12 slices,/);
    expect(parse('--converged').root).toMatch(/results\/long-context-converged$/);
    expect(parse().root).toMatch(/results\/long-context$/);
  });

  it('--slices runs only the slices named, numbered as in the whole set', async () => {
    const { code, out } = await dryRun('--converged', '--slices', '2');
    expect(code).toBe(0);
    const heads = out.filter((l) => l.trimStart().startsWith('== slice'));
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatch(/== slice 2\/15 \(shakespeare\): .*--seeds 1 /);
    expect(out.at(-1)?.trimStart()).toMatch(/^total: 9 runs to train in 1 slice,/);
    const issue13 = await dryRun('--slices', '5');
    expect(issue13.out.filter((l) => l.trimStart().startsWith('== slice'))).toEqual([
      expect.stringMatching(/== slice 5\/\d+ \(brackets\)/),
    ]);
  });

  it.each([
    [['--converged', '--only', 'paper'], /--only/],
    [['--converged', '--slices', '28'], /--slices/],
    [
      ['--converged', '--only', 'recall', '--slices', '1'],
      /--slices 1 is a slice of part shakespeare/,
    ],
    [['--converged', '--slices', '0'], /--slices/],
    [
      ['--only', 'gpt', '--slices', '1'],
      /--slices 1 is a slice of part paper, which --only leaves out/,
    ],
  ])('refuses %j with BENCH_INVALID_OPTION', (argv, message) => {
    expect(() => parse(...argv)).toThrow(
      expect.objectContaining({
        code: 'BENCH_INVALID_OPTION',
        message: expect.stringMatching(message),
      }),
    );
  });
});
