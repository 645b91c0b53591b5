export { BRUTE_FORCE_SPIN_LIMIT, bruteForceEstimate, bruteForceMoments } from './bruteForce.js';
export type { BruteForceMoments } from './bruteForce.js';
export { conformanceBatch } from './conformanceBatch.js';
export { runConformanceCheck } from './conformanceChecks.js';
export { CONFORMANCE_CHECKS } from './conformanceOptions.js';
export type { ConformanceCheck, SamplerConformanceOptions } from './conformanceOptions.js';
export { describeSamplerConformance } from './describeSamplerConformance.js';
export { thrownBy } from './thrownBy.js';
export { withoutNodeBuiltins } from './withoutNodeBuiltins.js';
