/**
 * The sampler conformance checks and test helpers, with no test framework: run
 * {@link runConformanceCheck} per check under vitest, `node:test`, Jest or a script.
 *
 * @packageDocumentation
 * @module @boltzmann/ising-core/testing
 */
// @boltzmann/ising-core/testing: the sampler conformance checks and test helpers, with no test
// framework (vitest's describeSamplerConformance is in ./vitest.ts, the testing/vitest entry).
export { BRUTE_FORCE_SPIN_LIMIT, bruteForceEstimate, bruteForceMoments } from './bruteForce.js';
export type { BruteForceMoments } from './bruteForce.js';
export { ConformanceError } from './conformanceAssert.js';
export { conformanceBatch } from './conformanceBatch.js';
export { runConformanceCheck } from './conformanceChecks.js';
export { CONFORMANCE_CHECKS, CONFORMANCE_TITLES } from './conformanceOptions.js';
export type { ConformanceCheck, SamplerConformanceOptions } from './conformanceOptions.js';
export { codeOf, rejectionOf, thrownBy } from './thrownErrors.js';
export type { Thrown } from './thrownErrors.js';
export { withoutNodeBuiltins } from './withoutNodeBuiltins.js';
