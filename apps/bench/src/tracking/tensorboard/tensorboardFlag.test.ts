import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs.
import { parseBenchArgs } from '../../cli/parseArgs.js';

describe('--tensorboard', () => {
  it.each(['shakespeare', 'brackets', 'dqa', 'gpt', 'recall'])('is a flag of bench %s', (task) => {
    expect(parseBenchArgs([task, '--tensorboard'], () => undefined)?.tensorboard).toBe(true);
    expect(parseBenchArgs([task], () => undefined)?.tensorboard).toBeUndefined();
  });

  it('goes with --queue (the coordinator writes the event files from the rows each result brings)', () => {
    const command = parseBenchArgs(
      ['shakespeare', '--tensorboard', '--queue', 'redis://127.0.0.1:6379'],
      () => undefined,
    );
    expect([command?.tensorboard, command?.queue?.masked]).toEqual([
      true,
      'redis://127.0.0.1:6379',
    ]);
  });
});
