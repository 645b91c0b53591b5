import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { connectedWorkers, workerName, workersText } from './queueJobs.js';

/** A queue whose CLIENT LIST holds these BullMQ worker client names (or fails). */
const queueWith = (rawnames: string[] | Error): Queue =>
  ({
    getWorkers: async () => {
      if (rawnames instanceof Error) throw rawnames;
      return rawnames.map((rawname) => ({ name: 'bench', rawname }));
    },
  }) as unknown as Queue;

describe('connected workers', () => {
  it('should sum the runs at once from the worker names, one for a worker named otherwise', async () => {
    expect(workerName('gpu-box', 4242, 3)).toBe('gpu-box:4242:x3');
    const queue = queueWith([
      `bull:YmVuY2g=:w:${workerName('a', 1, 3)}`,
      `bull:YmVuY2g=:w:${workerName('b', 2, 1)}`,
      'bull:YmVuY2g=',
    ]);
    const connected = await connectedWorkers(queue);
    expect(connected).toEqual({ workers: 3, runsAtOnce: 5 });
    expect(workersText(connected!)).toBe('3 workers (5 runs at once)');
  });

  it('should say just the count when each worker trains one run, and null when Redis cannot list', async () => {
    expect(workersText({ workers: 1, runsAtOnce: 1 })).toBe('1 worker');
    expect(workersText({ workers: 0, runsAtOnce: 0 })).toBe('0 workers');
    expect(workersText({ workers: 1, runsAtOnce: 2 })).toBe('1 worker (2 runs at once)');
    expect(await connectedWorkers(queueWith(new Error('ERR unknown command')))).toBeNull();
  });
});
