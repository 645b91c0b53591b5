import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunEnvironment, RunRecord } from '../recordTypes.js';
import { environmentNote } from './environmentNote.js';

const records = syntheticRecords(
  ['brackets', '--variants', 'softmax,boltzmann', '--lengths', '4', '--seeds', '0,1'],
  () => 0.5,
);
const machine: RunEnvironment = {
  node: 'v20.1.0',
  platform: 'linux',
  osRelease: '6.1',
  arch: 'x64',
  cpuModel: 'Some CPU',
  logicalCores: 8,
  totalMemoryBytes: 8 * 2 ** 30,
  workers: 2,
};
const on = (r: RunRecord, environment: RunEnvironment): RunRecord => ({
  ...r,
  gitCommit: 'abc',
  environment,
});

describe('environmentNote', () => {
  it('should name the one environment every run trained in', () => {
    expect(environmentNote(records.map((r) => on(r, machine)))).toBe(
      'Measured on: engine not recorded; Some CPU × 8 logical cores, 8.0 GiB; linux x64 6.1; Node v20.1.0; workers 2; git abc.',
    );
  });

  it('should name each commit that ran on one machine, with its runs', () => {
    const twoCommits = records.map((r, k) => ({
      ...on(r, machine),
      gitCommit: k === 0 ? 'def' : 'abc',
    }));
    // All finish at the same time here, so the commits keep the records' order.
    expect(environmentNote(twoCommits)).toMatch(
      new RegExp(`; workers 2; git def \\(1 run\\), abc \\(${records.length - 1} runs\\)\\.$`),
    );
  });

  it('should letter the machines in order of their first finished run, as the time table does', () => {
    // The run on 4 cores finishes last, so its machine is B whatever the order of the records.
    const mixed = records.map((r, k) => ({
      ...on(r, k === 0 ? { ...machine, logicalCores: 4 } : machine),
      finishedAt: `2026-12-0${k === 0 ? 7 : 1}T00:00:00.000Z`,
    }));
    for (const order of [mixed, [...mixed].reverse()]) {
      const note = environmentNote(order);
      expect(note).toMatch(/^Runs on 2 machines, so each machine has its own rows and ratios /);
      expect(note).toContain(
        'A: engine not recorded; Some CPU × 8 logical cores, 8.0 GiB; linux x64 6.1; Node v20.1.0; workers 2; git abc | B: engine not recorded; Some CPU × 4 logical cores',
      );
    }
  });

  it('should say so for older records without one', () => {
    expect(environmentNote(records.map((r) => ({ ...r, gitCommit: null })))).toBe(
      'Measured on: engine not recorded; machine not recorded; git unknown.',
    );
  });
});
