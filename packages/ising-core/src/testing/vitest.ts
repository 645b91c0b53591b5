/**
 * The conformance suite registered with vitest: one `describe`, one test per check.
 *
 * @packageDocumentation
 * @module @boltzmann/ising-core/testing/vitest
 */
// @boltzmann/ising-core/testing/vitest: the conformance suite registered with vitest.
export { describeSamplerConformance } from './describeSamplerConformance.js';
