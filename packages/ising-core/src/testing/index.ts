export { BRUTE_FORCE_SPIN_LIMIT, bruteForceEstimate, bruteForceMoments } from './bruteForce.js';
export type { BruteForceMoments } from './bruteForce.js';
export { CONFORMANCE_CHECKS, conformanceBatch, runConformanceCheck } from './conformanceChecks.js';
export type { ConformanceCheck, SamplerConformanceOptions } from './conformanceChecks.js';
export { describeSamplerConformance } from './describeSamplerConformance.js';
export { thrownBy } from './thrownBy.js';
export { withoutNodeBuiltins } from './withoutNodeBuiltins.js';
