import { thrownBy } from './testing/index.js';
import { describe, expect, it } from 'vitest';
import {
  causalBoltzmann,
  createRng,
  createSamplerRegistry,
  exactSampler,
  gibbsSampler,
  meanFieldSampler,
} from './index.js';

const huge = 'x'.repeat(200_000);

const messageOf = (run: () => unknown): string => thrownBy(run).message;

describe('errors echo user values in bounded form', () => {
  it('keeps messages short when an option, name or argument is a 200,000-character string', () => {
    const messages = [
      messageOf(() => gibbsSampler.create({ initial: huge as 'up' })),
      messageOf(() => gibbsSampler.create({ chains: huge as unknown as number })),
      messageOf(() => meanFieldSampler.create({ onNonConvergence: huge as 'throw' })),
      messageOf(() => meanFieldSampler.create({ damping: huge as unknown as number })),
      messageOf(() => exactSampler.create({ maxSpins: huge as unknown as number })),
      messageOf(() => exactSampler.create(huge as never)),
      messageOf(() => createSamplerRegistry().require(huge)),
      messageOf(() => createRng(huge as unknown as number)),
      messageOf(() =>
        causalBoltzmann(
          new Float64Array(1),
          new Float64Array(1),
          { batch: 1, length: 1 },
          { variant: huge as 'boltzmann' },
        ),
      ),
    ];
    for (const message of messages) {
      expect(message).not.toBe('no error');
      expect(message.length, message.slice(0, 80)).toBeLessThan(500);
      expect(message).toMatch(/more characters\)/);
    }
  });
});
