import type { ExactForwardResult } from '../kernels/exactKernel.js';

/**
 * A reply slot in shared memory, so the calling thread can block on `Atomics.wait` for a
 * worker's result instead of waiting for a message (which needs a free event loop).
 * Layout: `Int32[0]` status (0 pending, 1 done, 2 failed), `Int32[1]` error-text length,
 * 1 KiB of UTF-8 error text, then the float64 payload.
 */
export interface SyncReply {
  readonly header: Int32Array;
  readonly text: Uint8Array;
  readonly payload: Float64Array;
}

const TEXT_BYTES = 1024;
const PAYLOAD_OFFSET = 8 + TEXT_BYTES;

/** Allocates a reply slot for `payloadLength` float64 values in a new `SharedArrayBuffer`. */
export function createSyncReply(payloadLength: number): SyncReply {
  const buffer = new SharedArrayBuffer(PAYLOAD_OFFSET + 8 * payloadLength);
  return {
    header: new Int32Array(buffer, 0, 2),
    text: new Uint8Array(buffer, 8, TEXT_BYTES),
    payload: new Float64Array(buffer, PAYLOAD_OFFSET, payloadLength),
  };
}

/** Worker side: publishes the arrays (concatenated) and wakes the waiting thread. */
export function completeSyncReply(reply: SyncReply, arrays: readonly Float64Array[]): void {
  let offset = 0;
  for (const a of arrays) {
    reply.payload.set(a, offset);
    offset += a.length;
  }
  Atomics.store(reply.header, 0, 1);
  Atomics.notify(reply.header, 0);
}

/** Worker side: publishes a failure message and wakes the waiting thread. */
export function failSyncReply(reply: SyncReply, message: string): void {
  const bytes = new TextEncoder().encode(message).subarray(0, TEXT_BYTES);
  reply.text.set(bytes);
  Atomics.store(reply.header, 1, bytes.length);
  Atomics.store(reply.header, 0, 2);
  Atomics.notify(reply.header, 0);
}

/** Calling side: blocks until the reply is complete; returns the error text on failure or time-out. */
export function waitSyncReply(
  reply: SyncReply,
  timeoutMs: number,
): { ok: true } | { ok: false; message: string } {
  const deadline = Date.now() + timeoutMs;
  while (Atomics.load(reply.header, 0) === 0) {
    const left = deadline - Date.now();
    if (left <= 0)
      return { ok: false, message: `no answer within ${Math.round(timeoutMs / 1000)} s` };
    Atomics.wait(reply.header, 0, 0, left);
  }
  if (Atomics.load(reply.header, 0) === 1) return { ok: true };
  const length = Atomics.load(reply.header, 1);
  return { ok: false, message: new TextDecoder().decode(reply.text.slice(0, length)) };
}

/** Splits a forward payload (`up`, `logZ`, `norm` of `k` problems) into fresh arrays. */
export function readForward(payload: Float64Array, k: number, stride: number): ExactForwardResult {
  return {
    up: payload.slice(0, k * stride),
    logZ: payload.slice(k * stride, k * stride + k),
    norm: payload.slice(k * stride + k, k * stride + 2 * k),
  };
}
