import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_CONTEXT_SLICES } from './longContextSlices.js';
import { parseLongContextArgs } from './longContextCommand.js';
import { main } from './main.js';
import { parseBenchArgs } from './options.js';

describe('bench long-context', () => {
  it('every slice is a valid bench command of the long presets', () => {
    for (const slice of LONG_CONTEXT_SLICES) {
      const command = parseBenchArgs([...slice.argv, '--results', '/tmp/x'], () => undefined)!;
      expect(command.grid.steps).toBeGreaterThan(0);
      expect(slice.argv).toContain('long');
    }
    // The paper's model covers T = 16 … 256; brackets 16 … 64.
    const paper = parseBenchArgs([...LONG_CONTEXT_SLICES[0]!.argv], () => undefined)!;
    expect(paper.grid.lengths).toEqual([16, 32, 64, 128, 256]);
  });

  it('dry-runs every slice of a part without training', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-long-context-'));
    const out: string[] = [];
    const code = await main(['long-context', '--only', 'brackets', '--root', root, '--dry-run'], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    expect(code).toBe(0);
    expect(out.filter((l) => l.trimStart().startsWith('== slice'))).toHaveLength(3);
    expect(out.filter((l) => l.startsWith('grid: '))).toHaveLength(3);
    // The slices' estimates added up: 90 + 30 + 6 bracket runs, none finished in a new root.
    expect(out.at(-1)?.trimStart()).toMatch(
      /^total: 126 runs to train in 3 slices, ≈ \S+ \(the slices' estimates added; rough, ±50 %\)$/,
    );
    expect(out.join('\n')).not.toContain('error');
  });

  it('refuses an unknown part', () => {
    expect(() =>
      parseLongContextArgs(['long-context', '--only', 'paper,moon'], () => undefined),
    ).toThrow(expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }));
  });
});
