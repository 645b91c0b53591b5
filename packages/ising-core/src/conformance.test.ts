import { exactSampler } from './exactSampler.js';
import { gibbsSampler, meanFieldSampler } from './index.js';
import { describeSamplerConformance } from './testing/vitest.js';

describeSamplerConformance(gibbsSampler, { createOptions: { seed: 1 } });

// Mean field is exact at J = 0; otherwise its magnetizations are off by O(J²) and its VJP by O(J) (the
// Onsager reaction term it drops; measured 0.052 at couplingScale 0.05). Give it weak couplings, and leave out the
// two-spin check, whose J = 0.8 ferromagnet is far outside the regime where mean field is accurate.
describeSamplerConformance(meanFieldSampler, {
  couplingScale: 0.05,
  tolerance: { magnetization: 5e-3, gradient: 0.1 },
  skip: ['two-spin'],
});

// The exact sampler is the reference itself: hold it to rounding error, also with a created spin limit.
describeSamplerConformance(exactSampler, { tolerance: { magnetization: 1e-12, gradient: 1e-12 } });
describeSamplerConformance(exactSampler, {
  createOptions: { maxSpins: 6 },
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
  seed: 2,
});
