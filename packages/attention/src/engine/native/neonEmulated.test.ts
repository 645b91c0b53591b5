// The NEON kernels (arm64), built and run here under emulation, against x86-64's portable baseline
// (SSE2): the harness native/isaCheck/ (see its README) compiled for each as binding.gyp compiles
// the kernels, NEON with Debian's aarch64-linux-gnu-gcc and run by qemu-aarch64, every kernel on
// the same seeded inputs, the outputs compared float for float (src/testing/isaCompare.ts):
// - as built: bit for bit where nothing contracts (copies, sums, lone products, transpose, the
//   softmax's max and z_t, add_into), elsewhere within the FMA tolerances the <op>Native.test.ts
//   files allow AVX2 and AVX-512 against wasm (NEON contracts a·b + c into FMAs as they do;
//   base, like wasm, does not);
// - built with -ffp-contract=off: bit for bit everywhere, since NEON's 4 lanes are base's and only
//   the FMAs may round differently.
// Runs where the cross compiler and qemu are (`apt-get install gcc-aarch64-linux-gnu qemu-user`)
// on an x86-64 host; elsewhere it is reported skipped with the reason, or fails with it under
// BOLTZMANN_REQUIRE_NEON=1 (`pnpm --filter @boltzmann/attention check:neon`).
import { mkdtempSync, rmSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BASE_BUILD,
  compileHarness,
  type IsaBuild,
  missingTools,
  neonBuild,
  runHarness,
} from '../../testing/isaBuild.js';
import { compareIsaRuns } from '../../testing/isaCompare.js';

const reason =
  arch() !== 'x64'
    ? `the host is ${arch()}, not x64 (the reference is x86-64's base)`
    : (missingTools(BASE_BUILD) ?? missingTools(neonBuild()));
const required = process.env.BOLTZMANN_REQUIRE_NEON === '1';
/** The builds' folder, made by the first test that runs (none where both are skipped). */
let madeDir: string | undefined;
const dir = () => (madeDir ??= mkdtempSync(join(tmpdir(), 'isaCheck-')));
afterAll(() => {
  if (madeDir !== undefined) rmSync(madeDir, { recursive: true, force: true });
});

let baseRun: string | undefined;
/** The base's run, made once. */
function reference(): string {
  baseRun ??= runHarness(BASE_BUILD, compileHarness(BASE_BUILD, join(dir(), 'base')));
  return baseRun;
}

/** Builds and runs `build`, compares it with the base, prints the worst ratios, expects no failure. */
function check(build: IsaBuild, name: string, bitExact: boolean): void {
  const started = performance.now();
  const run = runHarness(build, compileHarness(build, join(dir(), name)));
  const result = compareIsaRuns(reference(), run, bitExact);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const worst = [...result.worst].map(([k, v]) => `  ${k}: ${v.toPrecision(3)}`).join('\n');
  const { compared, tolerant, tolerantIdentical } = result.counts;
  console.log(
    `${name}: ${compared} outputs compared (${tolerant} with a tolerance, ${tolerantIdentical} of them bit for bit), built and run in ${seconds} s; worst |neon − base| over its tolerance:\n${worst}`,
  );
  const first = result.failures.slice(0, 12).join('\n');
  expect(result.failures.length, `${name}: failures, the first:\n${first}`).toBe(0);
}

describe('the NEON kernels under qemu against x86-64 base', () => {
  const title = (what: string) =>
    reason === undefined ? what : `${what} (cannot run here: ${reason})`;
  it.skipIf(reason !== undefined && !required)(
    title('as binding.gyp builds them: exact where nothing contracts, else the FMA tolerances'),
    () => {
      if (reason !== undefined) expect.fail(`BOLTZMANN_REQUIRE_NEON=1: ${reason}`);
      check(neonBuild(), 'neon', false);
    },
    600_000,
  );
  it.skipIf(reason !== undefined && !required)(
    title('without FMA contraction: bit for bit the base'),
    () => {
      if (reason !== undefined) expect.fail(`BOLTZMANN_REQUIRE_NEON=1: ${reason}`);
      check(neonBuild(['-ffp-contract=off']), 'neon-no-fma', true);
    },
    600_000,
  );
});
