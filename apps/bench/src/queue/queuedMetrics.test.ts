// A queued run's metrics, written by the coordinator from the text its result brings: checked
// line by line (a result is data), then through the trackers a local run uses.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid } from '../grid/expandGrid.js';
import { runId } from '../grid/expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { metricsPath } from '../results/runFiles.js';
import { tinyShakespeareArgs } from '../testing/fixtures.js';
import type { RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import { writeJobMetrics } from './queuedMetrics.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-queued-metrics-'));
const [config] = expandGrid(
  parseBenchArgs(
    tinyShakespeareArgs(dir, { steps: 10, evalEvery: 5, checkpointEvery: 5 }),
    () => undefined,
  )!,
);
const run = { config: config!, id: runId(config!), jobId: 'job-1' };
const settings: RunSettings = { resultsDir: dir, checkpointEvery: 5, logEvery: 5, plugins: [] };
const record = { id: run.id } as RunRecord;
const rows = [
  { event: 'train', step: 5, time: 1.5, trainLoss: 2.5, lr: 0.001 },
  { event: 'eval', step: 10, time: 2.5, metricName: 'perplexity', metric: 9, evalLoss: 2.2 },
];
const text = rows.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('writeJobMetrics', () => {
  it("writes the result's rows as the run's metrics file", async () => {
    const warnings: string[] = [];
    await writeJobMetrics(settings, run, record, text, (m) => void warnings.push(m));
    expect(warnings).toEqual([]);
    expect(readFileSync(metricsPath(dir, run.id), 'utf8')).toBe(text);
  });

  it.each([
    [
      'a line that is not a row',
      `${text}{"event":"train","step":-1,"time":3}\n`,
      /line 3: its step/,
    ],
    ['a line that is not JSON', `${text}{"event":`, /line 3: it is not valid JSON/],
    ['metrics that are not text', { rows }, /they are not text/],
  ])('writes nothing for %s, and says so', async (_, metrics, why) => {
    const other = mkdtempSync(join(tmpdir(), 'bench-queued-metrics-bad-'));
    const warnings: string[] = [];
    await writeJobMetrics({ ...settings, resultsDir: other }, run, record, metrics, (m) =>
      warnings.push(m),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(why);
    expect(warnings[0]).toContain(`no metrics written for run ${run.id}`);
    expect(existsSync(metricsPath(other, run.id))).toBe(false);
  });
});
