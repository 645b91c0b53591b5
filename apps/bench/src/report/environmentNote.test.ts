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

  it('should say when the runs came from several environments, and count each', () => {
    const mixed = records.map((r, k) => on(r, k === 0 ? { ...machine, logicalCores: 4 } : machine));
    const note = environmentNote(mixed);
    expect(note).toMatch(/^Runs from 2 environments \(times compare only within one\): /);
    expect(note).toContain(
      '× 4 logical cores, 8.0 GiB; linux x64 6.1; Node v20.1.0; workers 2; git abc (1 run)',
    );
    expect(note).toContain(
      `× 8 logical cores, 8.0 GiB; linux x64 6.1; Node v20.1.0; workers 2; git abc (${records.length - 1} runs)`,
    );
  });

  it('should say so for older records without one', () => {
    expect(environmentNote(records.map((r) => ({ ...r, gitCommit: null })))).toBe(
      'Measured on: engine not recorded; machine not recorded; git unknown.',
    );
  });
});
