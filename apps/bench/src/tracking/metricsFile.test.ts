import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../types.js';
import { metricsFileTracker, readMetrics } from './metricsFile.js';
import type { MetricsRow, TrackerContext } from './types.js';

const ID = 'shakespeare-softmax-T4-s0-abc';
const row = (event: MetricsRow['event'], step: number): MetricsRow => ({ event, step, time: 1 });
const lines = (rows: readonly MetricsRow[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** A results folder whose metrics file for ID holds `text`, and a tracker context over it. */
function folder(text: string | undefined, startStep: number, warnings: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-metrics-file-'));
  const path = join(dir, 'metrics', `${ID}.jsonl`);
  if (text !== undefined) {
    mkdirSync(join(dir, 'metrics'));
    writeFileSync(path, text);
  }
  const context: TrackerContext = {
    id: ID,
    config: {} as RunConfig,
    settings: { resultsDir: dir, checkpointEvery: 5, logEvery: 5, plugins: [] },
    startStep,
    warn: (m) => void warnings.push(m),
  };
  return { dir, path, context };
}

const earlier = [
  row('train', 5),
  row('eval', 5),
  row('train', 10),
  row('eval', 10),
  row('train', 15),
];

describe('metrics/<id>.jsonl', () => {
  it('should start empty on a fresh start (step 0), whatever an earlier attempt wrote', () => {
    // gpt evaluates at step 0: a fresh start writes that row again.
    const { path, context } = folder(lines([row('eval', 0), ...earlier]), 0);
    const t = metricsFileTracker(context);
    t.row(row('train', 5));
    t.close();
    expect(readMetrics(path)).toEqual([row('train', 5)]);
  });

  it('should keep the rows up to a checkpoint step and append after them', () => {
    const { path, context } = folder(lines(earlier), 10);
    const t = metricsFileTracker(context);
    t.row(row('train', 15));
    t.close();
    expect(readMetrics(path)).toEqual([...earlier.slice(0, 4), row('train', 15)]);
  });

  it('should drop a torn line with a warning when it resumes', () => {
    const warnings: string[] = [];
    const { path, context } = folder(`${lines(earlier.slice(0, 2))}{"event":"tr`, 5, warnings);
    metricsFileTracker(context).close();
    expect(readFileSync(path, 'utf8')).toBe(lines(earlier.slice(0, 2)));
    expect(warnings).toEqual([`${path}: dropped a line that is not a metrics row`]);
  });

  it('should create the folder and file when there is none', () => {
    const { path, context } = folder(undefined, 0);
    metricsFileTracker(context).close();
    expect(existsSync(path)).toBe(true);
    expect(readMetrics(path)).toEqual([]);
  });

  it.each([
    ['not json', /line 2: it is not valid JSON/],
    ['[1]', /line 2: it is not a JSON object/],
    ['{"event":"x","step":1,"time":1}', /line 2: its event is not "train" or "eval"/],
    ['{"event":"eval","step":-1,"time":1}', /line 2: its step is not an integer ≥ 0/],
    ['{"event":"eval","step":1,"time":"now"}', /line 2: its time is not a number/],
    ['{"event":"train","step":1,"time":1,"lr":"3e-3"}', /line 2: its lr is not a number/],
  ])('should refuse the line %s with BENCH_CORRUPT_METRICS naming file and line', (bad, why) => {
    const { path } = folder(`${lines([row('train', 5)])}${bad}\n`, 0);
    expect(() => readMetrics(path)).toThrow(why);
    expect(() => readMetrics(path)).toThrow(
      expect.objectContaining({ code: 'BENCH_CORRUPT_METRICS' }),
    );
  });

  it('should refuse a run id that is not a plain file name (the run files helper)', () => {
    const { context } = folder(undefined, 0);
    expect(() => metricsFileTracker({ ...context, id: '../escape' })).toThrow(
      expect.objectContaining({ code: 'BENCH_UNSAFE_PATH' }),
    );
  });
});
