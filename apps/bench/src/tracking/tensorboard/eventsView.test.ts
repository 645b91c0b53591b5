import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../testing/fixtures.js';
import { eventsViewHtml, readLogdir } from './eventsView.js';
import { tensorboardRunDir, tensorboardTracker } from './tensorboardTracker.js';

/** Two runs' event files (softmax and boltzmann at T = 4) under `<dir>/tensorboard`. */
function writeRuns(dir: string): string[] {
  const records = syntheticRecords(
    ['shakespeare', '--lengths', '4', '--variants', 'softmax,boltzmann'],
    () => 9,
  );
  for (const record of records) {
    const tracker = tensorboardTracker({
      id: record.id,
      config: record.config,
      settings: {
        resultsDir: dir,
        checkpointEvery: 5,
        logEvery: 5,
        plugins: [],
        tensorboard: true,
      },
      startStep: 0,
      warn: () => undefined,
    })!;
    tracker.row({ event: 'train', step: 5, time: 1, trainLoss: 3, lr: 1e-3 });
    tracker.row({ event: 'eval', step: 5, time: 2, metricName: 'perplexity', metric: 9 });
    tracker.close();
  }
  return records.map((r) => r.id);
}

describe('the event files view', () => {
  it('plots every run of a log dir and lists the hyperparameters that differ', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-view-'));
    const ids = writeRuns(dir);
    mkdirSync(join(dir, 'tensorboard', 'empty'));
    const runs = readLogdir(join(dir, 'tensorboard'));
    expect([...runs.keys()]).toEqual([...ids].sort());
    const html = await eventsViewHtml(runs, ['train/loss', 'val/perplexity']);
    expect(html).toContain('<svg');
    expect(html).toContain('train/loss');
    for (const id of ids) expect(html).toContain(id);
    expect(html).toMatch(/<th>variant<\/th>/);
    expect(html).not.toMatch(/<th>length<\/th>/);
  });

  it('refuses an empty log dir and a corrupt file, with codes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-view-bad-'));
    expect(() => readLogdir(dir)).toThrow(/BENCH_NO_RESULTS|no run folder/);
    const [id] = writeRuns(dir);
    const runDir = tensorboardRunDir(dir, id!);
    const path = join(runDir, readdirSync(runDir)[0]!);
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
    writeFileSync(path, bytes);
    expect(() => readLogdir(join(dir, 'tensorboard'))).toThrow(/checksum mismatch/);
  });
});
