// The engine's worker threads on their own: a worker whose pass fails reports it as
// ATTENTION_WORKER_FAILED with its message (not a hang), and lives on for the next pass.
import { afterAll, describe, expect, it } from 'vitest';
import { resolveTransformerConfig } from '../../index.js';
import { createArena } from '../arena.js';
import { planParams } from '../layout.js';
import { startEngineWorkers } from './workerPool.js';
import type { EngineWorkers } from './workerPool.js';

const started: EngineWorkers[] = [];
afterAll(async () => {
  await Promise.all(started.map((w) => w.dispose()));
});

describe('engine workers', () => {
  it('a pass that fails on a worker is ATTENTION_WORKER_FAILED with its message; the next pass runs', async () => {
    const config = resolveTransformerConfig({
      vocabSize: 7,
      maxLength: 6,
      dModel: 8,
      heads: 2,
      variant: 'softmax',
    });
    const p = planParams(config).size;
    const memory = createArena(6 * p + 4096, { shared: true });
    const workers = await startEngineWorkers(memory, config, 2);
    started.push(workers);
    // Its shard of 4 sequences of 6 tokens does not fit in this arena: the worker's kernels refuse.
    workers.issue({ batch: 8, length: 6, step: undefined });
    let error: unknown;
    try {
      workers.finish();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'ATTENTION_WORKER_FAILED' });
    expect(String((error as Error).message)).toMatch(
      /engine worker 1 failed: ATTENTION_SHAPE_MISMATCH: a pass of 8 × 6 needs \d+ floats; the arena has \d+/,
    );
    // A batch of one leaves the worker no shard: the pass finishes cleanly.
    workers.issue({ batch: 1, length: 6, step: undefined });
    expect(() => workers.finish()).not.toThrow();
  });

  it('a worker that fails its start says why at once, not after the 60 s start-up deadline', async () => {
    const config = resolveTransformerConfig({ vocabSize: 7, maxLength: 6, dModel: 8, heads: 2 });
    const memory = createArena(6 * planParams(config).size + 4096, { shared: true });
    // A backend the worker cannot build kernels for: its start fails before it is up.
    const backend = { name: 'native', isa: 'no-such-isa' } as const;
    const t0 = performance.now();
    const error = await startEngineWorkers(memory, config, 2, undefined, backend).then(
      (w) => {
        started.push(w);
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'ATTENTION_THREADS_UNAVAILABLE' });
    expect(String((error as Error).message)).toMatch(/^engine worker 1 did not start \(.+\)$/);
    expect(String((error as Error).message)).not.toContain('in 60 s');
    expect(performance.now() - t0).toBeLessThan(30_000);
  });
});
