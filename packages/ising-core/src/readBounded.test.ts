import { describe, expect, it } from 'vitest';
import { readBounded } from './internalApi.js';

const tooLarge = (n: number) =>
  Object.assign(new Error(`too large after ${n}`), { code: 'TOO_LARGE' });

/** A web stream of `chunks` chunks of `size` bytes that records whether it was cancelled. */
function stream(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled += 1;
      controller.enqueue(new Uint8Array(size).fill(state.pulled));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

async function* iterable(chunks: (Uint8Array | string)[], state: { returned: boolean }) {
  try {
    for (const c of chunks) yield c;
  } finally {
    state.returned = true;
  }
}

describe('readBounded', () => {
  it('reads web streams, async iterables, bytes and text whole when they fit', async () => {
    const { body } = stream(3, 4);
    expect(Array.from(await readBounded(body, 12, tooLarge))).toEqual([
      1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
    ]);
    const state = { returned: false };
    expect(
      new TextDecoder().decode(
        await readBounded(iterable(['ab', Uint8Array.of(99)], state), 3, tooLarge),
      ),
    ).toBe('abc');
    expect(await readBounded('héllo', 6, tooLarge)).toEqual(new TextEncoder().encode('héllo'));
    expect(await readBounded(undefined, 0, tooLarge)).toEqual(new Uint8Array());
    expect(await readBounded(new Blob(['blob']), 4, tooLarge)).toEqual(
      new TextEncoder().encode('blob'),
    );
    await expect(readBounded(new Blob(['blob!']), 4, tooLarge)).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
  });

  it('stops reading a stream as soon as it passes the limit, and cancels it', async () => {
    const { body, state } = stream(1000, 1024);
    await expect(readBounded(body, 10 * 1024, tooLarge)).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: 'too large after 11264',
    });
    expect(state.pulled).toBeLessThan(20);
    expect(state.cancelled).toBe(true);
    const it = { returned: false };
    await expect(readBounded(iterable(['xx', 'yy', 'zz'], it), 3, tooLarge)).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
    expect(it.returned).toBe(true);
    await expect(readBounded(new Uint8Array(5), 4, tooLarge)).rejects.toMatchObject({
      message: 'too large after 5',
    });
  });

  it('an aborted signal stops the read with its reason', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: () => new Promise(() => undefined),
      cancel: () => {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const reading = readBounded(body, 100, tooLarge, { signal: controller.signal });
    controller.abort(new Error('deadline'));
    await expect(reading).rejects.toThrow('deadline');
    expect(cancelled).toBe(true);
  });
});
