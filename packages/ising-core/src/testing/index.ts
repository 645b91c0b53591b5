export { BRUTE_FORCE_SPIN_LIMIT, bruteForceEstimate, bruteForceMoments } from './bruteForce.js';
export type { BruteForceMoments } from './bruteForce.js';
