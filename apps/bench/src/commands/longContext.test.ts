import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { LONG_CONTEXT_SLICES } from '../experiments/longContextSlices.js';
import { longContextCommand } from './longContext.js';
import { parseCommandLine } from '../cli/program.js';
import { main } from '../cli/main.js';
import { parseBenchArgs } from '../cli/parseArgs.js';

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
    // Both Shakespeare models have the exact anchor at T = 16 and a relative-J tap slice.
    for (const model of ['shakespeare', 'gpt']) {
      const slices = LONG_CONTEXT_SLICES.filter((s) => s.argv[0] === model);
      const anchor = slices.find((s) => s.argv.includes('exact'));
      expect(anchor?.argv.slice(anchor.argv.indexOf('--lengths'))).toContain('16');
      expect(slices.some((s) => s.argv.join(' ').includes('--couplings relative'))).toBe(true);
    }
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

  it('--from seeds the root with published records, so only the rest trains', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-long-context-root-'));
    const published = mkdtempSync(join(tmpdir(), 'bench-long-context-published-'));
    // Two finished runs of the bracket slice with the exact sampler (6 runs), as published.
    const exact = LONG_CONTEXT_SLICES.find(
      (s) => s.part === 'brackets' && s.argv.includes('exact'),
    )!;
    const records = syntheticRecords([...exact.argv], () => 0.9).slice(0, 2);
    mkdirSync(join(published, 'brackets', 'runs'), { recursive: true });
    for (const r of records)
      writeFileSync(join(published, 'brackets', 'runs', `${r.id}.json`), JSON.stringify(r));
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const argv = ['long-context', '--only', 'brackets', '--root', root, '--dry-run'];
    expect(await main([...argv, '--from', published], io)).toBe(0);
    expect(out).toContain(
      `seeded 2 finished run records from ${join(published, 'brackets', 'runs')}`,
    );
    expect(out.filter((l) => l.startsWith('grid: 6 runs — 2 finished'))).toHaveLength(1);
    expect(out.at(-1)?.trimStart()).toMatch(/^total: 124 runs to train/);
    const copied = join(root, 'brackets', 'runs', `${records[0]!.id}.json`);
    expect(readFileSync(copied, 'utf8')).toBe(JSON.stringify(records[0]));
    // A second seeding copies nothing: the root has them.
    out.length = 0;
    expect(await main([...argv, '--from', published], io)).toBe(0);
    expect(out[0]).toMatch(/^seeded 0 finished run records/);
    // A corrupt published record is refused by name, and nothing of it lands in the root.
    writeFileSync(join(published, 'brackets', 'runs', 'broken-0123.json'), '{"id": "broken-0');
    out.length = 0;
    expect(await main([...argv, '--from', published], io)).not.toBe(0);
    expect(out.join('\n')).toMatch(/BENCH_CORRUPT_CHECKPOINT.*broken-0123\.json/);
    expect(existsSync(join(root, 'brackets', 'runs', 'broken-0123.json'))).toBe(false);
  });

  it('refuses an unknown part', () => {
    expect(() =>
      parseCommandLine([longContextCommand], ['long-context', '--only', 'paper,moon'], () => {}),
    ).toThrow(expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }));
  });
});
