// The threads' wait: it returns once the word reaches its target, whether that happened before
// the wait, while it spins or while it sleeps, and gives up only through its check.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { bump, waitFor } from './control.js';

describe('waitFor', () => {
  it('returns at once for a word already at its target, without a check', () => {
    const ints = new Int32Array(new SharedArrayBuffer(8));
    ints[1] = 3;
    waitFor(ints, 1, 3, () => {
      throw new Error('checked');
    });
  });

  it('gives up through its check, after the spin, when the word never moves', () => {
    const ints = new Int32Array(new SharedArrayBuffer(8));
    let checks = 0;
    const give = () => {
      checks += 1;
      if (checks === 3) throw new Error('gave up');
    };
    expect(() => waitFor(ints, 0, 1, give, 1, 0.5)).toThrow('gave up');
    expect(checks).toBe(3);
  });

  it('sees a bump from another thread, late enough that it has gone to sleep', async () => {
    const ints = new Int32Array(new SharedArrayBuffer(8));
    const code = `const { workerData } = require('node:worker_threads');
      const ints = new Int32Array(workerData);
      Atomics.wait(ints, 1, 0, 30); // past the waiter's 1 ms spin
      Atomics.add(ints, 0, 1); Atomics.notify(ints, 0);`;
    const worker = new Worker(code, { eval: true, workerData: ints.buffer });
    await new Promise((resolve) => worker.once('online', resolve));
    waitFor(ints, 0, 1, () => {}, 5_000);
    expect(Atomics.load(ints, 0)).toBe(1);
    await worker.terminate();
    bump(ints, 0);
    expect(Atomics.load(ints, 0)).toBe(2);
  });
});
