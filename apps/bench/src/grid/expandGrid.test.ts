import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { canonicalJson, expandGrid, runId } from './expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';

const grid = (...argv: string[]) => expandGrid(parseBenchArgs(argv, () => undefined)!);

describe('expandGrid', () => {
  it('is the Cartesian product of the axes, with unique ids', () => {
    const runs = grid(
      'brackets',
      '--lengths',
      '8,12',
      '--d-model',
      '16,32,64',
      '--ffn',
      'on,off',
      '--seeds',
      '0,1,2',
      '--mode',
      'balanced,prefix',
    );
    expect(runs).toHaveLength(4 * 2 * 3 * 2 * 3 * 2);
    expect(new Set(runs.map(runId)).size).toBe(runs.length);
    expect(runs.every((r) => r.dataset === 'brackets' && r.ffnHidden === 4 * r.dModel)).toBe(true);
  });

  it('gives the paper presets their METHOD.md §5 sizes', () => {
    expect(grid('shakespeare', '--preset', 'paper')).toHaveLength(4 * 3 * 3);
    expect(grid('brackets', '--preset', 'paper')).toHaveLength(4 * 3 * 2 * 3 * 3 * 2);
    // dqa: 2 datasets × 2 lengths × 3 seeds × (exact + 2 shot settings)
    expect(grid('dqa', '--preset', 'paper')).toHaveLength(2 * 2 * 3 * 3);
  });

  it('only hands the sampler to variants that use one', () => {
    const runs = grid(
      'shakespeare',
      '--lengths',
      '4',
      '--sampler',
      'gibbs',
      '--sampler-options',
      '{"sweeps":3}',
    );
    const byVariant = Object.fromEntries(runs.map((r) => [r.variant, r]));
    expect(byVariant.softmax!.sampler).toBe('none');
    expect(byVariant.sigmoid!.sampler).toBe('none');
    expect(byVariant.boltzmann!.sampler).toBe('gibbs');
    expect(byVariant.coupling!.samplerOptions).toEqual({ sweeps: 3 });
    // so a softmax run's id does not change with the sampler flag
    const exact = grid('shakespeare', '--lengths', '4');
    expect(runId(exact.find((r) => r.variant === 'softmax')!)).toBe(runId(byVariant.softmax!));
    expect(runId(exact.find((r) => r.variant === 'boltzmann')!)).not.toBe(
      runId(byVariant.boltzmann!),
    );
  });

  it('builds DQA columns: exact training plus one column per shot count, seeded per run', () => {
    const runs = grid(
      'dqa',
      '--datasets',
      'brackets',
      '--lengths',
      '4',
      '--seeds',
      '5',
      '--shots',
      '0,256',
      '--dqa-options',
      '{"tau":2}',
    );
    expect(runs.map((r) => r.column)).toEqual(['exact', 'dqa-dist', 'dqa-256shots']);
    expect(runs.every((r) => r.variant === 'boltzmann')).toBe(true);
    expect(runs[2]!.samplerOptions).toEqual({ tau: 2, shots: 256, seed: 5 });
  });

  it('hashes configs independently of key order and changes id with any result-relevant value', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] })).toBe(
      canonicalJson({ a: [1, { c: 3, d: 2 }], b: 1 }),
    );
    const [a] = grid('shakespeare', '--lengths', '4', '--variants', 'softmax', '--steps', '10');
    const [b] = grid('shakespeare', '--lengths', '4', '--variants', 'softmax', '--steps', '11');
    const [c] = grid('shakespeare', '--lengths', '4', '--variants', 'softmax', '--steps', '10');
    expect(runId(a!)).not.toBe(runId(b!));
    expect(runId(a!)).toBe(runId(c!));
    expect(runId(a!)).toMatch(/^shakespeare-softmax-T4-d64-ffn-s0-[0-9a-f]{12}$/);
  });
});
