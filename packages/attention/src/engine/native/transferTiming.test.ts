// The transfer kernels' timing harness (native/transferTiming/, run by
// scripts/benchTransferKernels.ts), built for x86-64's base as binding.gyp compiles the kernels:
// it links, runs a small shape in every mode and reports what it ran (the shape, its window
// states, no rows left), and refuses bad arguments. On a host without gcc or not x86-64 it is
// reported skipped with the reason, or fails with it under BOLTZMANN_REQUIRE_NATIVE=1 (as CI runs).
import { mkdtempSync, rmSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_BUILD, compileHarness, missingTools, runHarness } from '../../testing/isaBuild.js';

const reason = arch() !== 'x64' ? `the host is ${arch()}, not x64` : missingTools(BASE_BUILD);
const required = process.env.BOLTZMANN_REQUIRE_NATIVE === '1';
const dir = mkdtempSync(join(tmpdir(), 'transferTiming-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the transfer kernels timing harness', () => {
  it.skipIf(reason !== undefined && !required)(
    `times every mode of a small shape${reason ? ` (skipped: ${reason})` : ''}`,
    () => {
      if (reason !== undefined)
        throw new Error(`the timing harness cannot be built here: ${reason}`);
      const binary = compileHarness(BASE_BUILD, dir, 'transferTiming');
      for (const mode of ['f', 'b', 'fb']) {
        const out = JSON.parse(runHarness(BASE_BUILD, binary, ['3', '9', '4', '2', mode]));
        expect(out).toMatchObject({ isa: 'base', B: 3, T: 9, W: 4, mode, left: 0 });
        expect(out.states).toBe(3 * 45 * 16);
        expect(out.ms).toBeGreaterThan(0);
      }
      expect(() => runHarness(BASE_BUILD, binary, ['3', '9', '13', '2', 'fb'])).toThrow(/W ≤ 12/);
    },
  );
});
