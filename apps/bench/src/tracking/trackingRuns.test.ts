// Tracking in real runs: each run's metrics/<id>.jsonl as it trains (on both training paths and
// with an iterative sampler's convergence figures), a stopped and resumed run's file equal to an
// uninterrupted one's, `bench export --curves` against the records' curves, and the environment
// block of every record.
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../testing/fixtures.js';
import type { MetricsRow } from './types.js';

const io = (progress: ProgressDisplay, signal?: AbortSignal) => ({
  out: () => undefined,
  err: () => undefined,
  progress,
  signal,
});

const STEPS = 12;
const args = (dir: string, ...more: string[]) => [
  ...tinyShakespeareArgs(dir, { steps: STEPS, evalEvery: 5, checkpointEvery: 5 }),
  '--workers',
  '0',
  ...more,
];

function records(dir: string): RunRecord[] {
  return readdirSync(join(dir, 'runs'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8')) as RunRecord);
}

const metricsText = (dir: string, id: string): string =>
  readFileSync(join(dir, 'metrics', `${id}.jsonl`), 'utf8');
const metrics = (dir: string, id: string): MetricsRow[] =>
  metricsText(dir, id)
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as MetricsRow);

/** The cosine schedule's rate at 1-based step `s` (3e-3 peak, floor × 0.1, over STEPS steps). */
const cosineLr = (s: number): number =>
  3e-3 * (0.1 + 0.9 * 0.5 * (1 + Math.cos((Math.PI * (s - 1)) / STEPS)));

/** A row without its wall-clock figures (which no two runs share). */
const steady = ({ time, stepsPerSecond, ...r }: MetricsRow) => r;

describe('metrics.jsonl in real runs', () => {
  it.each(['wasm', 'tfjs'])(
    'every run writes a train row per log interval and an eval row per evaluation (--engine %s)',
    async (engine) => {
      const dir = mkdtempSync(join(tmpdir(), `bench-metrics-${engine}-`));
      const before = Date.now() / 1000;
      expect(await main(args(dir, '--engine', engine), io(progressRecorder().progress))).toBe(0);
      const runs = records(dir);
      expect(runs).toHaveLength(2);
      for (const r of runs) {
        const rows = metrics(dir, r.id);
        expect(rows.map((m) => `${m.event}@${m.step}`)).toEqual([
          'train@5',
          'eval@5',
          'train@10',
          'eval@10',
          'train@12',
          'eval@12',
        ]);
        const train = rows.filter((m) => m.event === 'train');
        const evals = rows.filter((m) => m.event === 'eval');
        // The rows are the record's curves, written as the run went.
        expect(train.map((m) => ({ step: m.step, value: m.trainLoss }))).toEqual(r.trainLoss);
        expect(evals.map((m) => ({ step: m.step, value: m.metric }))).toEqual(r.evalMetric);
        expect(evals.at(-1)!.evalLoss).toBe(r.finalLoss);
        for (const m of evals) expect(m.metricName).toBe('perplexity');
        for (const m of train) {
          expect(m.lr).toBeCloseTo(cosineLr(m.step), 12);
          expect(m.gradNorm).toBeGreaterThan(0);
          expect(Number.isFinite(m.gradNorm)).toBe(true);
          expect(m.stepsPerSecond).toBeGreaterThan(0);
          expect(m.convergence).toBeUndefined(); // softmax and sigmoid call no sampler
        }
        for (const m of rows) expect(m.time).toBeGreaterThanOrEqual(before);
      }
    },
  );

  it("an iterative sampler's convergence figures are in each train row", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-metrics-tap-'));
    const more = ['--variants', 'boltzmann', '--sampler', 'tap'];
    expect(await main(args(dir, ...more), io(progressRecorder().progress))).toBe(0);
    const [r] = records(dir);
    const train = metrics(dir, r!.id).filter((m) => m.event === 'train');
    expect(train.map((m) => ({ step: m.step, ...m.convergence }))).toEqual(r!.convergence!.points);
  });

  it('a run stopped, killed after more rows, and resumed ends with the file of an uninterrupted one', async () => {
    const straight = mkdtempSync(join(tmpdir(), 'bench-metrics-straight-'));
    expect(await main(args(straight), io(progressRecorder().progress))).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'bench-metrics-resume-'));
    const controller = new AbortController();
    const first = progressRecorder((p) => {
      if (p.step >= 7) controller.abort();
    });
    expect(await main(args(dir), io(first.progress, controller.signal))).toBe(130);
    // The run that was under way: the one with a metrics file (the other never started).
    const [file] = readdirSync(join(dir, 'metrics'));
    const id = file!.slice(0, -'.jsonl'.length);
    // A process killed after its checkpoint (at a step in 7…9) leaves rows the checkpoint does
    // not keep (those of steps 10 and 12, as the uninterrupted run wrote them) and a torn line.
    const later = metricsText(straight, id)
      .split('\n')
      .filter((l) => l !== '' && (JSON.parse(l) as MetricsRow).step >= 10);
    appendFileSync(join(dir, 'metrics', file!), `${later.join('\n')}\n{"event":"tr`);
    const second = progressRecorder();
    expect(await main(args(dir), io(second.progress))).toBe(0);
    const resumedAt = second.starts.find((x) => x.id === id)!.startStep;
    expect(resumedAt).toBeGreaterThanOrEqual(7);
    expect(resumedAt).toBeLessThan(10);
    for (const r of records(straight)) {
      const [a, b] = [metrics(straight, r.id), metrics(dir, r.id)];
      expect(b.map(steady)).toEqual(a.map(steady));
    }
    expect(second.lines.join('\n')).toMatch(/warning: .*dropped a line that is not a metrics row/);
  });
});

describe('bench export --curves', () => {
  it("writes one CSV row per run × step, equal to the records' curves, and rejects a corrupt metrics line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-curves-'));
    expect(await main(args(dir), io(progressRecorder().progress))).toBe(0);
    const chunks: string[] = [];
    const out = {
      out: () => undefined,
      err: () => undefined,
      write: (t: string) => void chunks.push(t),
    };
    const exportArgs = ['export', '--results', dir, '--format', 'csv', '--curves'];
    const exported = async () => {
      chunks.length = 0;
      expect(await main(exportArgs, out)).toBe(0);
      const [head, ...lines] = chunks.join('').trimEnd().split('\r\n');
      const header = head!.split(',');
      return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i]!, v])));
    };
    const rows = await exported();
    const runs = records(dir);
    expect(rows).toHaveLength(runs.length * 3); // steps 5, 10, 12: train and eval merged
    for (const r of runs) {
      const mine = rows.filter((x) => x.id === r.id);
      for (const x of mine) {
        expect(x).toMatchObject({
          variant: r.config.variant,
          seqLen: '4',
          seed: '0',
          source: 'metrics',
        });
        expect(Number(x.lr)).toBeGreaterThan(0);
        expect(Number(x.gradNorm)).toBeGreaterThan(0);
      }
      const curve = (key: string) =>
        mine.map((x) => ({ step: Number(x.step), value: Number(x[key]) }));
      expect(curve('trainLoss')).toEqual(r.trainLoss);
      expect(curve('evalMetric')).toEqual(r.evalMetric);
    }
    // A run finished before metrics files existed: its record's curves, train loss and metric only.
    const older = runs[1]!;
    rmSync(join(dir, 'metrics', `${older.id}.jsonl`));
    const fallback = (await exported()).filter((x) => x.id === older.id);
    expect(fallback.map((x) => [x.source, x.lr])).toEqual(
      older.trainLoss.map(() => ['record', '']),
    );
    expect(fallback.map((x) => ({ step: Number(x.step), value: Number(x.trainLoss) }))).toEqual(
      older.trainLoss,
    );
    expect(fallback.map((x) => ({ step: Number(x.step), value: Number(x.evalMetric) }))).toEqual(
      older.evalMetric,
    );
    appendFileSync(join(dir, 'metrics', `${runs[0]!.id}.jsonl`), 'not json\n');
    const err: string[] = [];
    expect(await main(exportArgs, { ...out, err: (l: string) => void err.push(l) })).not.toBe(0);
    expect(err.join('\n')).toMatch(
      new RegExp(`BENCH_CORRUPT_METRICS.*${runs[0]!.id}\\.jsonl line 7: it is not valid JSON`),
    );
  });
});

describe('the environment block', () => {
  it('every record says where it trained', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-env-'));
    expect(await main(args(dir), io(progressRecorder().progress))).toBe(0);
    for (const r of records(dir)) {
      expect(r.environment).toMatchObject({
        node: process.version,
        arch: process.arch,
        platform: process.platform,
        workers: 0,
      });
      expect(r.environment!.logicalCores).toBeGreaterThan(0);
      expect(r.environment!.totalMemoryBytes).toBeGreaterThan(0);
      expect(r.environment!.cpuModel.length).toBeGreaterThan(0);
      expect(r.engine?.name).toBe('wasm');
    }
  });
});
