import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { runRow, runRows, toCsv, toJsonl, writeRunsJsonl } from './runRows.js';

const records = syntheticRecords(
  ['shakespeare', '--variants', 'softmax,boltzmann', '--lengths', '4', '--seeds', '0,1'],
  (c) => 5 + c.seed,
);

describe('runRow', () => {
  it('should flatten the config with dotted keys and add the final results, commit and times', () => {
    const r = { ...records[0]!, gitCommit: 'abc123', wallSeconds: 12.5, stepsPerSecond: 24 };
    const row = runRow({ ...r, config: { ...r.config, samplerOptions: { threads: 2 } } });
    expect(row.id).toBe(r.id);
    expect(row['config.variant']).toBe(r.config.variant);
    expect(row['config.length']).toBe(4);
    expect(row['config.samplerOptions.threads']).toBe(2);
    expect(row).toMatchObject({
      metricName: 'perplexity',
      finalMetric: r.finalMetric,
      finalLoss: r.finalLoss,
      wallSeconds: 12.5,
      stepsPerSecond: 24,
      commit: 'abc123',
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
    });
    expect(Object.values(row).every((v) => v === null || typeof v !== 'object')).toBe(true);
    expect(runRow({ ...r, finalMetric: Number.NaN }).finalMetric).toBeNull();
  });

  it('should sort the rows by run id, whatever the order of the records', () => {
    const ids = runRows([...records].reverse()).map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(toJsonl(runRows(records))).toBe(toJsonl(runRows([...records].reverse())));
  });
});

describe('toCsv', () => {
  it('should write a header and quote fields as RFC 4180 says', () => {
    const csv = toCsv([
      { id: 'a', 'config.x': 1, note: 'plain' },
      { id: 'b', 'config.x': null, note: 'with, comma "and" quotes\nand a line' },
      { id: 'c', 'config.y': true },
    ]);
    expect(csv).toBe(
      'id,config.x,config.y,note\r\n' +
        'a,1,,plain\r\n' +
        'b,,,"with, comma ""and"" quotes\nand a line"\r\n' +
        'c,,true,\r\n',
    );
  });
});

describe('writeRunsJsonl', () => {
  it('should write one JSON row per run, sorted by id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-rows-'));
    const path = writeRunsJsonl(dir, [...records].reverse());
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(records.map((r) => r.id).sort());
  });
});
