// The native transfer-matrix kernels (transfer.c) on every ISA the CPU runs, against the
// references every backend's kernels are held to (src/testing/transferChecks.ts; the WAT ones in
// transferWat.test.ts): ising-core's transfer-matrix sampler in float64 for the weights, ∂L/∂h and
// ∂L/∂J of every row; the VJP from checkpointed segments (a 13th argument, tests only, sets the
// segment length) against the whole sweep; brute-force enumeration for short rows (also with
// fields to |h| = 1e3); the rows left to the caller (sums = −1, the row untouched).
import { describe, expect, it } from 'vitest';
import { itWithoutAddon } from '../../../testing/nativeKernels.js';
import {
  checkAgainstIsing,
  NATIVE_STRONG_CASES,
  checkLargeFields,
  checkSegments,
  largeFieldCases,
  largeFields,
  TRANSFER_CASES,
} from '../../../testing/transferChecks.js';
import {
  ENUMERATED_CASE,
  checkEnumeration,
  tinyTotals,
} from '../../../testing/transferEnumeration.js';
import { checkCouplingBounds, checkLeftRows } from '../../../testing/transferLeftRows.js';
import {
  NATIVE_BOUNDS,
  nativeTransferRunner,
  type TransferRun,
} from '../../../testing/transferKernels.js';
import { loadNativeAddon } from '../../native/nativeAddon.js';

const load = loadNativeAddon();

describe('native transfer-matrix kernels against the references', () => {
  if (load.addon === undefined) return itWithoutAddon('transfer kernels', load.reason);
  const addon = load.addon;
  for (const isa of addon.isas()) {
    const run = nativeTransferRunner(addon, isa);
    it(`weights, ∂L/∂h and ∂L/∂J on every case against ising-core (float64) [${isa}]`, () => {
      checkAgainstIsing(run, isa);
    });
    it(`segments of 1, 2, 5 and 13 positions give the whole sweep's gradients [${isa}]`, () => {
      checkSegments(run);
    });
    it(`w by enumeration, ∂L/∂h and ∂L/∂J by central differences of L = Σ gw·w [${isa}]`, () => {
      checkEnumeration(run);
    });
    it(`fields up to |h| = 1e3: every row with Σα ≥ e^−256 kept, against ising-core and enumeration [${isa}]`, () => {
      checkLargeFields(run, isa, largeFieldCases(NATIVE_BOUNDS.leftBelow));
      checkEnumeration(run, largeFields(ENUMERATED_CASE, 1e3, NATIVE_BOUNDS.leftBelow), 0.5);
    });
    it(`couplings past the float32 pass's bound (β Σ|J| 12) to the float64 pass's (40), against ising-core [${isa}]`, () => {
      checkLargeFields(run, `${isa} strong couplings`, NATIVE_STRONG_CASES);
    });
    it(`the thread's kept working memory (threadScratch.h): a case gives the same bits before and after larger and smaller ones, in both passes [${isa}]`, () => {
      const bits = (r: TransferRun) =>
        [r.w, r.sums, r.gh, r.gj].map((a) =>
          Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'),
        );
      for (const c of [TRANSFER_CASES[6]!, NATIVE_STRONG_CASES[2]!]) {
        const first = bits(run(c, 5));
        run({ ...c, length: 2 * c.length, fieldScale: 3 }, 6);
        run({ ...c, length: 5 }, 7);
        expect(bits(run(c, 5))).toEqual(first);
      }
    });
    it(`rows whose Σα is below e^−32 (fields −40 … −110) in the float64 pass, against enumeration [${isa}]`, () => {
      checkEnumeration(run, tinyTotals(ENUMERATED_CASE), 1);
    });
  }
  it('leaves NaN and infinite fields and a head whose couplings leave the float32 bounds to the caller, untouched', () => {
    checkLeftRows(nativeTransferRunner(addon, addon.isas()[0]!), NATIVE_BOUNDS);
  });

  it("leaves exactly the rows whose couplings pass its bounds (every key's β Σ|J| at most 40, every window's 2β Σ at most 600), and runs in float32 exactly those within 12, 250 and 1.5 a coupling (at W = 6 and 8)", () => {
    checkCouplingBounds(nativeTransferRunner(addon, addon.isas()[0]!), NATIVE_BOUNDS);
  });
});
