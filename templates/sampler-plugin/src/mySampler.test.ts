// The conformance suite every sampler plugin runs: shapes, options, determinism under a seed,
// magnetizations and gradients against exact enumeration (within the plugin's stated tolerance).
import { describeSamplerConformance } from '@boltzmann/ising-core/testing/vitest';
import plugin from './mySampler.js';

describeSamplerConformance(plugin, { createOptions: { shots: 20000 } });
