// The WAT transfer-matrix kernels (transferWat.mjs) against the references every backend's
// kernels are held to (src/testing/transferChecks.ts: ising-core in float64, enumeration, the
// segmented VJP, rows left to the caller), on plain and shared arenas; their float64 exp against
// Math.exp; problems whose messages hold entries far below 2^-60 (flushed to 0 here); and the
// scratch size transfer.ts computes, which must be exactly what the kernels take.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build helper without type declarations
import { compileWat } from '../../../../../../tools/wasm/wasmSource.mjs';
import {
  checkAgainstIsing,
  checkLargeFields,
  checkSegments,
  largeFieldCases,
  largeFields,
} from '../../../testing/transferChecks.js';
import { ENUMERATED_CASE, checkEnumeration } from '../../../testing/transferEnumeration.js';
import { checkCouplingBounds, checkLeftRows } from '../../../testing/transferLeftRows.js';
import { WAT_BOUNDS, watTransferRunner } from '../../../testing/transferKernels.js';
import type { TransferCase } from '../../../testing/transferKernels.js';
import { createArena, instantiateEngineModule } from '../../arena.js';
import { transferScratchFloats } from '../../transfer.js';
import { wasmBase64 as shared } from './transferSharedWasm.generated.js';
import { wasmBase64 as plain } from './transferWasm.generated.js';
// @ts-expect-error -- a plain .mjs kernel writer without type declarations
import { expFunc } from './transferWatText.mjs';

/** The WebAssembly API (this package's TypeScript libraries do not declare it). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object) => { exports: object };
    };
  }
).WebAssembly;

describe('WAT transfer-matrix kernels', () => {
  it('exp: within 2 ulps of Math.exp over [−745, 709], 0 and ∞ beyond, NaN for NaN', async () => {
    const text = `(module ${expFunc()} (export "exp" (func $exp)))`;
    const bytes: Uint8Array = await compileWat('exp.wat', text);
    const { exp } = new wasm.Instance(new wasm.Module(bytes)).exports as {
      exp(x: number): number;
    };
    let worst = 0;
    const xs = [0, -0, 1, -1, 0.5 * Math.LN2, -0.5 * Math.LN2, 709.7, -708, -744, 1e-300];
    for (let i = 0; i <= 200000; i++) xs.push(-40 + (80 * i) / 200000, -745 + (1454 * i) / 200000);
    for (const x of xs) {
      const want = Math.exp(x);
      const ulp = want * Number.EPSILON;
      if (want > 1e-300) worst = Math.max(worst, Math.abs(exp(x) - want) / ulp);
    }
    expect(worst, 'ulps').toBeLessThanOrEqual(2);
    expect(exp(800)).toBe(Number.POSITIVE_INFINITY);
    expect(exp(-800)).toBe(0);
    expect(exp(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(exp(Number.NaN)).toBeNaN();
  });

  it('weights, ∂L/∂h and ∂L/∂J on every case against ising-core (float64)', () => {
    checkAgainstIsing(watTransferRunner(), 'wat');
  });

  it('segments of 1, 2, 5 and 13 positions give the whole sweep’s gradients', () => {
    checkSegments(watTransferRunner());
  });

  for (const sharedArena of [false, true])
    it(`w by enumeration, ∂L/∂h and ∂L/∂J by central differences [${sharedArena ? 'shared' : 'plain'} arena]`, () => {
      checkEnumeration(watTransferRunner({ shared: sharedArena }));
    });

  it('fields up to |h| = 1e3: every row with Σα ≥ e^−32 kept, against ising-core and enumeration', () => {
    checkLargeFields(watTransferRunner(), 'wat', largeFieldCases(WAT_BOUNDS.leftBelow));
    checkEnumeration(watTransferRunner(), largeFields(ENUMERATED_CASE, 1e3), 0.5);
  });

  it('leaves NaN and infinite fields and a head whose couplings leave the float32 bounds to the caller, untouched', () => {
    checkLeftRows(watTransferRunner(), WAT_BOUNDS);
  });

  it("leaves exactly the rows whose couplings pass its bounds (every key's β Σ|J| at most 12, every window's 2β Σ at most 250, every coupling's β|J| at most 1.5)", () => {
    checkCouplingBounds(watTransferRunner(), WAT_BOUNDS);
  });

  it('tiny message entries (fields of e^±10 to e^±13 a step: states far below 2^-60) against ising-core', () => {
    // Fields this strong made the gradients cancel while the VJP's direction was not centered
    // (gJ to 4.8e-5 of the largest); centered on the magnetizations (transfer.c group_direction)
    // they are as accurate as any (measured: w 7.4e-8, gh 5.9e-7, gJ 9.9e-7).
    const tiny: TransferCase[] = [
      { batch: 3, heads: 1, length: 24, window: 8, beta: 1, fieldScale: 10, couplingScale: 0.05 },
      { batch: 5, heads: 2, length: 20, window: 4, beta: 1, fieldScale: 10, couplingScale: 0.2 },
    ];
    checkAgainstIsing(watTransferRunner(), 'wat tiny', tiny);
  });
});

describe('WAT transfer-matrix kernels’ scratch (transferScratchFloats)', () => {
  // (T, W): whole sweeps, and W = 12 at T = 64, past the whole sweep's 4 MB: segments.
  for (const [t, w] of [
    [2, 1],
    [9, 3],
    [24, 8],
    [64, 12],
  ] as const)
    it(`T ${t}, W ${w}: both kernels run in the bytes computed, the larger need fails (−1) with 4 fewer`, () => {
      const bhtt = t * t;
      const start = 16 * Math.ceil((6 * bhtt + t) / 4); // 16-aligned, past every operand
      const bytes = 4 * transferScratchFloats(t, w) - 16; // the 16 are for aligning the start
      const memory = createArena(start / 4 + bytes / 4 + 16);
      const k = instantiateEngineModule({ plain, shared }, memory, 'transfer') as Record<
        string,
        (...a: number[]) => number
      >;
      const f = new Float32Array(memory.buffer);
      for (let i = 0; i < bhtt; i++) f[i] = Math.sin(i);
      const args = [0, 4 * bhtt, 4 * 2 * bhtt, 4 * 3 * bhtt, 1, 1, t, w, 0.5];
      const grads = [4 * (3 * bhtt + t), 4 * (4 * bhtt + t), 4 * (5 * bhtt + t), 0];
      const short = [
        k.transfer_forward!(...args, start, bytes - 4),
        k.transfer_backward!(...args, ...grads, start, bytes - 4),
      ];
      expect(short).toContain(-1);
      expect(k.transfer_forward!(...args, start, bytes)).toBe(0);
      expect(k.transfer_backward!(...args, ...grads, start, bytes)).toBe(0);
    });
});
