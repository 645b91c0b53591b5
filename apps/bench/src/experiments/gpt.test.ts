import { createTrainer, createTransformer, initBackend } from '@boltzmann/attention';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, runId } from '../grid/expandGrid.js';
import { trainerOptionsOf } from '../training/runModel.js';
import { bench } from '../testing/fixtures.js';
import { parseBenchArgs } from '../cli/parseArgs.js';

// Training runs of the gpt task through the grid: gptRuns.test.ts.

describe('bench gpt presets', () => {
  it('baby is the nanoGPT README CPU configuration of shakespeare_char', () => {
    const cmd = parseBenchArgs(['gpt', '--preset', 'baby'])!;
    const g = cmd.grid;
    expect([cmd.layers, cmd.heads, g.dModels, g.lengths, g.batchSize, g.ffns, g.ffnHidden]).toEqual(
      [4, 4, [128], [64], 12, [true], null],
    );
    expect(g.gpt).toEqual({
      bias: false,
      tieEmbeddings: true,
      dropout: 0,
      warmupSteps: 100,
      beta2: 0.99,
      evalBatches: 20,
    });
    expect([g.lr, g.minLrFraction * g.lr, g.weightDecay, g.clipNorm, g.steps, g.evalEvery]).toEqual(
      [1e-3, 1e-4, 0.1, 1, 2000, 250],
    );
    expect([g.variants, cmd.sampler, cmd.samplerOptions]).toEqual([
      ['softmax', 'sigmoid', 'boltzmann'],
      'tap',
      { threads: 1 },
    ]);
    expect(
      parseBenchArgs(['gpt', '--sampler', 'mean-field', '--sampler-options', '{"threads":2}'])!
        .samplerOptions,
    ).toEqual({ threads: 2 });
    const [run] = expandGrid(cmd);
    expect(run).toMatchObject({
      experiment: 'gpt',
      dataset: 'shakespeare',
      layers: 4,
      heads: 4,
      dModel: 128,
      ffnHidden: 512,
      length: 64,
      evalWindows: 2 * 20 * 12,
    });
    expect(runId(run!)).toMatch(/^gpt-L4-softmax-T64-d128-ffn-s0-[0-9a-f]{12}$/);
  });

  it('small (the default) is the same shape scaled down', () => {
    const cmd = parseBenchArgs(['gpt'])!;
    expect(cmd.preset).toBe('small');
    expect([
      cmd.layers,
      cmd.heads,
      cmd.grid.dModels,
      cmd.grid.lengths,
      cmd.grid.batchSize,
      cmd.grid.steps,
      cmd.grid.evalEvery,
    ]).toEqual([2, 4, [64], [64], 12, 300, 100]);
    expect(cmd.grid.gpt).toEqual({
      bias: false,
      tieEmbeddings: true,
      dropout: 0,
      warmupSteps: 30,
      beta2: 0.99,
      evalBatches: 10,
    });
  });

  it('the other tasks keep their defaults and have no baby preset', () => {
    const cmd = parseBenchArgs(['shakespeare'])!;
    expect([cmd.layers, cmd.heads, cmd.sampler, cmd.grid.gpt]).toEqual([1, 1, 'exact', undefined]);
    expect(expandGrid(cmd).every((c) => c.gpt === undefined && c.layers === undefined)).toBe(true);
    expect(() => parseBenchArgs(['shakespeare', '--preset', 'baby'])).toThrow(
      expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }),
    );
    expect(() => parseBenchArgs(['gpt', '--preset', 'paper'])).toThrow(
      expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }),
    );
  });

  it('the learning rate warms up linearly over 100 steps, then decays by the cosine to 1e-4 at step 2,000', async () => {
    await initBackend('wasm', { log: () => undefined });
    const config = expandGrid(
      parseBenchArgs(['gpt', '--preset', 'baby', '--variants', 'boltzmann'])!,
    )[0]!;
    const model = createTransformer({
      vocabSize: 5,
      outputSize: 5,
      maxLength: 4,
      dModel: 8,
      layers: 2,
      variant: 'boltzmann',
      bias: false,
      tieEmbeddings: true,
      seed: 0,
    });
    // Weight decay on matrices only (embeddings, kernels); never on LayerNorm gains or J.
    for (const p of model.parameters)
      expect([p.name, p.decay]).toEqual([
        p.name,
        p.variable.shape.length >= 2 && !p.name.includes('couplings'),
      ]);
    const trainer = createTrainer(model, trainerOptionsOf(config));
    expect(trainer.options).toMatchObject({
      warmupSteps: 100,
      beta1: 0.9,
      beta2: 0.99,
      weightDecay: 0.1,
      clipNorm: 1,
      totalSteps: 2000,
    });
    const formula = (it: number): number => {
      if (it < 100) return (1e-3 * (it + 1)) / 101;
      const ratio = Math.min(1, (it - 100) / 1900);
      return 1e-4 + 0.5 * (1 + Math.cos(Math.PI * ratio)) * (1e-3 - 1e-4);
    };
    for (const it of [0, 1, 50, 99, 100, 101, 500, 1050, 1999, 2000, 2500])
      expect(trainer.lrAt(it)).toBeCloseTo(formula(it), 15);
    expect(trainer.lrAt(1050)).toBeCloseTo(5.5e-4, 15); // the cosine's midpoint
    trainer.dispose();
    model.dispose();
  });
});

describe('bench gpt input errors (before training)', () => {
  it('heads must divide d_model', async () => {
    const r = await bench('gpt', '--heads', '3', '--dry-run');
    expect(r.code).toBe(2);
    expect(r.text).toMatch(
      /error \[BENCH_INVALID_OPTION\]: --heads 3 must divide every --d-model, got d_model 64/,
    );
  });

  it('T may not exceed the positional table', async () => {
    const r = await bench('gpt', '--lengths', '65', '--dry-run');
    expect(r.code).toBe(2);
    expect(r.text).toMatch(
      /error \[BENCH_INVALID_OPTION\]: --lengths 65 is above the 64-entry positional table/,
    );
  });

  it('a sampler that cannot take T = 64 is refused with the samplers that can', async () => {
    const r = await bench(
      'gpt',
      '--sampler',
      'exact',
      '--dry-run',
      '--results',
      mkdtempSync(join(tmpdir(), 'bench-gpt-exact-')),
    );
    expect(r.code).toBe(1);
    expect(r.text).toMatch(
      /error \[BENCH_SAMPLER_TOO_SMALL\]: sampler "exact" handles at most \d+ spins, the grid has T = 64; samplers that take T = 64: .*tap/,
    );
  });

  it('transfer-matrix needs banded couplings; with banded:8 the default grid passes the dry run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-gpt-tm-'));
    const refused = await bench(
      'gpt',
      '--sampler',
      'transfer-matrix',
      '--dry-run',
      '--results',
      dir,
    );
    expect(refused.code).toBe(1);
    expect(refused.text).toContain('BENCH_INVALID_OPTION');
    const ok = await bench(
      'gpt',
      '--sampler',
      'transfer-matrix',
      '--couplings',
      'banded:8',
      '--dry-run',
      '--results',
      dir,
    );
    expect(ok.text).not.toContain('error');
    expect(ok.code).toBe(0);
  });
});
