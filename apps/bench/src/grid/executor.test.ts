import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quiet, syntheticRecords, tinyShakespeareArgs } from '../testing/fixtures.js';
import { runGrid } from './executor.js';
import type { GridExecutor, GridOptions, GridPlan, PlannedGrid } from './types.js';

/** The tiny grid of the fixtures (2 runs), and a record of its first run already in `dir`. */
function tinyGrid(dir: string) {
  const records = syntheticRecords(
    tinyShakespeareArgs(dir, { steps: 4, evalEvery: 4, checkpointEvery: 2 }),
    () => 5,
  );
  mkdirSync(join(dir, 'runs'), { recursive: true });
  writeFileSync(join(dir, 'runs', `${records[0]!.id}.json`), JSON.stringify(records[0]));
  return { configs: records.map((r) => r.config), records };
}

/** An executor that trains each pending run at once into a record, and says what it was asked. */
function fakeExecutor(dir: string, calls: string[], fail?: Error): GridExecutor {
  return {
    resumesLocalCheckpoints: true,
    slots: (pending) => pending,
    open: async () => void calls.push('open'),
    announce: async (grid, eta) => {
      calls.push(`announce ${grid.pending.length} pending, eta ${eta > 0}`);
      return 'grid: fake';
    },
    run: async (grid: PlannedGrid) => {
      calls.push(`run locked ${existsSync(join(dir, '.lock'))}`);
      if (fail) throw fail;
      for (const t of grid.pending) {
        const other = [...grid.done.values()][0]!;
        grid.done.set(t.id, { ...other, id: t.id, config: t.config });
      }
      return {
        total: grid.configs.length,
        records: [...grid.done.values()],
        failures: [],
        interrupted: false,
        unfinished: 0,
      };
    },
    close: async () => void calls.push('close'),
  };
}

function options(dir: string, lines: string[], plans: GridPlan[], dryRun = false): GridOptions {
  return {
    settings: { checkpointEvery: 2, logEvery: 1, resultsDir: dir, plugins: [] },
    progress: quiet,
    out: (l) => void lines.push(l),
    onPlan: (p) => void plans.push(p),
    dryRun,
  };
}

describe('the grid loop over an executor', () => {
  it('opens, locks, plans (finished runs skipped), runs the rest, closes and unlocks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-executor-'));
    const { configs, records } = tinyGrid(dir);
    const calls: string[] = [];
    const lines: string[] = [];
    const plans: GridPlan[] = [];
    const outcome = await runGrid(configs, fakeExecutor(dir, calls), options(dir, lines, plans));
    expect(calls).toEqual(['open', 'announce 1 pending, eta true', 'run locked true', 'close']);
    // The header names what the runs train with (issue 43): here softmax and sigmoid, no sampler.
    expect(lines).toEqual([
      'grid: fake',
      `results: ${dir}`,
      'samplers: softmax, sigmoid on no sampler',
    ]);
    expect(plans).toEqual([{ runs: 2, pending: 1, etaSeconds: expect.any(Number) }]);
    expect(outcome.records.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('a dry run plans and lists the pending runs, takes no lock and runs nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-executor-dry-'));
    const { configs, records } = tinyGrid(dir);
    const calls: string[] = [];
    const lines: string[] = [];
    const outcome = await runGrid(configs, fakeExecutor(dir, calls), options(dir, lines, [], true));
    expect(calls).toEqual(['open', 'announce 1 pending, eta true', 'close']);
    expect(lines.slice(0, 3)).toEqual([
      'grid: fake',
      `results: ${dir}`,
      'samplers: softmax, sigmoid on no sampler',
    ]);
    expect(lines.slice(3)).toHaveLength(1);
    expect(lines[3]).toMatch(/^ {2}.+ {2}4 steps {2}≈ /);
    expect(outcome).toEqual({
      total: 2,
      records: [records[0]],
      failures: [],
      interrupted: false,
      unfinished: 0,
    });
  });

  it('closes the executor and releases the lock when its run throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-executor-throw-'));
    const { configs } = tinyGrid(dir);
    const calls: string[] = [];
    const run = runGrid(
      configs,
      fakeExecutor(dir, calls, new Error('worker lost')),
      options(dir, [], []),
    );
    await expect(run).rejects.toThrow('worker lost');
    expect(calls.at(-1)).toBe('close');
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });
});
