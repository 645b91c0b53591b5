import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { main } from '../cli/main.js';
import type { RunRecord } from '../recordTypes.js';

/** A results folder holding `records` as finished runs. */
function resultsFolder(records: readonly RunRecord[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  mkdirSync(join(dir, 'runs'));
  for (const r of records) writeFileSync(join(dir, 'runs', `${r.id}.json`), JSON.stringify(r));
  return dir;
}

function sink() {
  const out: string[] = [];
  const err: string[] = [];
  const chunks: string[] = [];
  const io = {
    out: (l: string) => void out.push(l),
    err: (l: string) => void err.push(l),
    write: (t: string) => void chunks.push(t),
  };
  return { out, err, io, written: () => chunks.join('') };
}

const records = syntheticRecords(
  ['brackets', '--variants', 'softmax,boltzmann', '--lengths', '4,8', '--seeds', '0'],
  (c) => 0.5 + c.length / 100,
).map((r, k) => (k === 0 ? { ...r, gitCommit: 'c0ffee, "quoted"' } : r));

describe('bench export', () => {
  it('should write CSV with a header to stdout, one RFC 4180 row per run sorted by id', async () => {
    const s = sink();
    const code = await main(
      ['export', '--results', resultsFolder(records), '--format', 'csv'],
      s.io,
    );
    expect(code).toBe(0);
    const lines = s.written().split('\r\n');
    expect(lines.at(-1)).toBe(''); // every record ends in CRLF
    const header = lines[0]!.split(',');
    expect(header[0]).toBe('id');
    expect(header).toEqual(
      expect.arrayContaining(['config.variant', 'config.length', 'finalMetric', 'commit']),
    );
    expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual(records.map((r) => r.id).sort());
    expect(s.written()).toContain('"c0ffee, ""quoted"""');
  });

  it('should write JSON Lines to --out atomically, each run once across folders', async () => {
    const s = sink();
    const out = join(mkdtempSync(join(tmpdir(), 'bench-export-out-')), 'sub', 'runs.jsonl');
    const code = await main(
      [
        'export',
        '--results',
        resultsFolder(records.slice(0, 3)),
        '--results',
        resultsFolder(records.slice(2)),
        '--format',
        'jsonl',
        '--out',
        out,
      ],
      s.io,
    );
    expect(code).toBe(0);
    expect(s.written()).toBe('');
    expect(s.out).toEqual([`${records.length} runs written to ${out}`]);
    const rows = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual(records.map((r) => r.id).sort());
    expect(rows[0]['config.experiment']).toBe('brackets');
  });

  it('should give coded errors for a bad format, a missing flag and a folder without runs', async () => {
    const dir = resultsFolder(records);
    for (const argv of [
      ['export', '--results', dir, '--format', 'xlsx'],
      ['export', '--results', dir],
      ['export', '--format', 'csv'],
    ]) {
      const s = sink();
      expect(await main(argv, s.io)).toBe(2);
      expect(s.err[0]).toMatch(/^error \[BENCH_INVALID_OPTION\]/);
    }
    for (const folder of [resultsFolder([]), join(dir, 'missing')]) {
      const s = sink();
      expect(await main(['export', '--results', folder, '--format', 'csv'], s.io)).toBe(1);
      expect(s.err[0]).toMatch(/^error \[BENCH_NO_RESULTS\]/);
    }
    const help = sink();
    expect(await main(['export', '--help'], help.io)).toBe(0);
    expect(help.out.join('\n')).toContain('--format <format>');
  });
});
