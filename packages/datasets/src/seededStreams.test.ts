import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { bracketTask, sampleBracketString, sampleWindows } from './index.js';

// Committed runs were drawn with these streams: a change of `Rng.nextInt`/`nextU32` or of the
// draws built on them must not move them. The values were recorded before `Rng.nextInt` became
// exact (datasets then reassembled the 32-bit words from `Rng.next()`).
describe('seeded dataset streams', () => {
  it('should draw the same bracket training strings for seed 0', () => {
    const task = bracketTask({ T: 12, mode: 'balanced', seed: 0 });
    expect(Array.from(task.nextBatch(3).tokens).join(',')).toBe(
      '0,0,1,1,0,1,0,1,0,0,1,1,0,1,0,0,0,1,1,0,0,1,1,1,0,0,0,0,1,0,1,1,1,1,0,1',
    );
    const sampled = bracketTask({ T: 40, mode: 'prefix', types: 2, seed: 0, testSize: 4 });
    expect(sampled.test.tokens.length).toBe(160);
    expect(Array.from(sampled.nextBatch(1).tokens).join('')).toBe(
      '0002230200112000200230023223010002310201',
    );
  });

  it('should draw the same long bracket strings (multi-word bigint ranks)', () => {
    const rng = createRng(0);
    expect(sampleBracketString(70, 'prefix', 3, rng)).toBe(
      '{[{[]{({[()[[[{}({}{}[([[({[({}{[]{{[{([({({[]({{}{()[][{}{{[({}()([[[',
    );
    expect(sampleBracketString(70, 'balanced', 2, rng)).toBe(
      '(()[])(([[[[([[([][])]][[]][]()())]][()]]()]([[]][([[]])])(()[[]][])))',
    );
  });

  it('should draw the same window offsets for seed 0', () => {
    const tokens = Int32Array.from({ length: 1_000_003 }, (_, i) => i % 65);
    expect(Array.from(sampleWindows(tokens, 6, 4, createRng(0)).starts)).toEqual([
      12537, 696337, 579724, 531694, 681685, 268538,
    ]);
  });
});
