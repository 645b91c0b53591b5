import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { parseBenchArgs } from '../cli/parseArgs.js';
import { presetGrid } from '../experiments/presets.js';
import { codeOf } from '@boltzmann/ising-core/testing';

const parse = (...argv: string[]) => parseBenchArgs(argv, () => undefined);

describe('parseBenchArgs', () => {
  it('fills the small preset and overrides single fields from flags', () => {
    const cmd = parse(
      'brackets',
      '--lengths',
      '8,12',
      '--d-model',
      '16,32',
      '--ffn',
      'on,off',
      '--seeds',
      '0,1,2',
      '--steps',
      '40',
      '--lr',
      '1e-3',
      '--mode',
      'prefix',
      '--types',
      '2',
      '--workers',
      '1',
    );
    expect(cmd).not.toBeNull();
    expect(cmd!.grid.lengths).toEqual([8, 12]);
    expect(cmd!.grid.dModels).toEqual([16, 32]);
    expect(cmd!.grid.ffns).toEqual([true, false]);
    expect(cmd!.grid.seeds).toEqual([0, 1, 2]);
    expect(cmd!.grid.steps).toBe(40);
    expect(cmd!.grid.lr).toBe(1e-3);
    expect(cmd!.grid.modes).toEqual(['prefix']);
    expect(cmd!.grid.types).toBe(2);
    expect(cmd!.workers).toBe(1);
    expect(cmd!.grid.batchSize).toBe(presetGrid('brackets', 'small').batchSize);
  });

  it('selects the paper preset (≥ 3 seeds, METHOD.md §5 lengths)', () => {
    const s = parse('shakespeare', '--preset', 'paper')!;
    expect(s.grid.lengths).toEqual([4, 8, 12]);
    expect(s.grid.seeds.length).toBeGreaterThanOrEqual(3);
    const b = parse('brackets', '--preset', 'paper')!;
    expect(b.grid.lengths).toEqual([8, 12, 16]);
    expect(b.grid.dModels).toEqual([16, 32, 64]);
    expect(b.grid.ffns).toEqual([true, false]);
    expect(b.grid.modes[0]).toBe('balanced');
    const d = parse('dqa', '--preset', 'paper')!;
    expect(d.grid.lengths).toEqual([4, 8]);
    expect(d.grid.shots).toEqual([0, 256]);
    expect(d.grid.seeds.length).toBeGreaterThanOrEqual(3);
  });

  it('accepts the literal -- that pnpm and nx forward', () => {
    expect(parse('shakespeare', '--', '--lengths', '4')!.grid.lengths).toEqual([4]);
    expect(parse('--', 'shakespeare', '--lengths', '4')!.grid.lengths).toEqual([4]);
  });

  it('parses JSON sampler options and repeatable --plugin paths', () => {
    const cmd = parse(
      'shakespeare',
      '--sampler',
      'gibbs',
      '--sampler-options',
      '{"sweeps":5}',
      '--plugin',
      '/a.js',
      '--plugin',
      '/b.js',
    )!;
    expect(cmd.sampler).toBe('gibbs');
    expect(cmd.samplerOptions).toEqual({ sweeps: 5 });
    expect(cmd.plugins).toEqual(['/a.js', '/b.js']);
  });

  it('rejects bad values with BENCH_INVALID_OPTION naming the flag and value', () => {
    const bad: string[][] = [
      ['--lengths', '4,x'],
      ['--lengths', '4,,8'],
      ['--lengths', '0'],
      ['--seeds', '-1'],
      ['--steps', '1.5'],
      ['--steps', '0'],
      ['--lr', 'NaN'],
      ['--lr', '-1'],
      ['--variants', 'softmax,linear'],
      ['--ffn', 'maybe'],
      ['--mode', 'random'],
      ['--types', '4'],
      ['--workers', '-1'],
      ['--sampler-options', '{oops'],
      ['--sampler-options', '[1,2]'],
      ['--preset', 'huge'],
      ['--unknown-flag'],
      ['--steps'],
    ];
    for (const args of bad)
      expect(
        codeOf(() => parse('brackets', ...args)),
        args.join(' '),
      ).toBe('BENCH_INVALID_OPTION');
    expect(() => parse('brackets', '--lengths', '4,x')).toThrow(/--lengths .*"4,x"/);
    expect(() => parse('brackets', '--nope')).toThrow(/unknown option '--nope'/);
  });

  it('rejects a missing or unknown task with BENCH_UNKNOWN_TASK', () => {
    expect(codeOf(() => parse())).toBe('BENCH_UNKNOWN_TASK');
    expect(codeOf(() => parse('poetry'))).toBe('BENCH_UNKNOWN_TASK');
  });

  it('returns null after printing help', () => {
    let text = '';
    expect(parseBenchArgs(['brackets', '--help'], (s) => (text += s))).toBeNull();
    expect(text).toContain('--d-model');
  });
});

describe('JSON option bounds and credentials', () => {
  it('refuses options nested deeper than 32 levels or longer than 1 MiB, with a short message', () => {
    const deep = `${'{"a":'.repeat(60_000)}1${'}'.repeat(60_000)}`;
    expect(() => parse('shakespeare', '--sampler-options', deep)).toThrow(
      /nested more than 32 levels/,
    );
    expect(
      codeOf(() => parse('shakespeare', '--sampler-options', `{"a":"${'x'.repeat(2 << 20)}"}`)),
    ).toBe('BENCH_INVALID_OPTION');
    const bad = `{${'x'.repeat(200_000)}`;
    let message = '';
    try {
      parse('shakespeare', '--sampler-options', bad);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/must be a JSON object/);
    expect(message.length).toBeLessThan(400);
  });

  it('splits credentials off --sampler-options: they never enter the grid options', () => {
    const cmd = parse(
      'shakespeare',
      '--sampler',
      'dwave',
      '--sampler-options',
      '{"token":"DEV-secret-1","numReads":50}',
    );
    expect(cmd!.samplerOptions).toEqual({ numReads: 50 });
    expect(cmd!.samplerSecrets).toEqual({ token: 'DEV-secret-1' });
  });
});

describe('--layers and --heads', () => {
  it('default to one block of one head (run ids unchanged), and must divide d_model', () => {
    const one = parse('shakespeare', '--lengths', '4');
    expect([one!.layers, one!.heads]).toEqual([1, 1]);
    const deep = parse(
      'shakespeare',
      '--lengths',
      '4',
      '--layers',
      '2',
      '--heads',
      '4',
      '--d-model',
      '32',
    );
    expect([deep!.layers, deep!.heads]).toEqual([2, 4]);
    expect(() => parse('shakespeare', '--heads', '3', '--d-model', '32')).toThrow(
      /--heads 3 must divide every --d-model, got d_model 32/,
    );
    expect(codeOf(() => parse('shakespeare', '--layers', '0'))).toBe('BENCH_INVALID_OPTION');
  });
});

describe('--tokens-per-batch and the long presets', () => {
  it('gives each length the batch size tokens / T, and refuses a length that does not divide it', async () => {
    const { expandGrid } = await import('../grid/expandGrid.js');
    const runs = expandGrid(
      parse('shakespeare', '--preset', 'long', '--variants', 'softmax', '--seeds', '0')!,
    );
    expect(runs.map((r) => [r.length, r.batchSize])).toEqual([
      [16, 64],
      [32, 32],
      [64, 16],
      [128, 8],
      [256, 4],
    ]);
    expect(runs.every((r) => r.steps === 1500 && r.evalWindows === 256)).toBe(true);
    const gpt = expandGrid(
      parse('gpt', '--preset', 'long', '--variants', 'softmax', '--seeds', '0')!,
    );
    // gpt evaluates evalBatches (20) random batches of each split at each run's own batch size.
    expect(gpt.map((r) => [r.length, r.batchSize, r.evalWindows])).toEqual([
      [16, 48, 1920],
      [64, 12, 480],
      [256, 3, 120],
    ]);
    expect(
      codeOf(() => parse('shakespeare', '--tokens-per-batch', '100', '--lengths', '16,32')),
    ).toBe('BENCH_INVALID_OPTION');
    // --batch-size wins over a preset's tokens per batch.
    expect(
      expandGrid(
        parse(
          'shakespeare',
          '--preset',
          'long',
          '--batch-size',
          '8',
          '--variants',
          'softmax',
          '--seeds',
          '0',
        )!,
      ).every((r) => r.batchSize === 8),
    ).toBe(true);
  });
});
