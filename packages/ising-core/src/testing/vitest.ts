// @boltzmann/ising-core/testing/vitest: the conformance suite registered with vitest.
export { describeSamplerConformance } from './describeSamplerConformance.js';
