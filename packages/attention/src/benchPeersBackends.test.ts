import { describe, expect, it } from 'vitest';
import {
  NATIVE_GOALS,
  backendGoal,
  engineHereName,
  peerBackends,
} from '../bench/peers/peerBackends.js';
import { combineRounds, formatPeerTable } from '../bench/peers/peerTable.js';

const NATIVE = { name: 'native', isa: 'avx512' } as const;
const NO_ADDON = { name: 'wasm', isa: 'f32x4', reason: 'the native addon did not load' } as const;

describe('benchPeers measures every engine row on each backend (issue 40)', () => {
  it('runs native and wasm where the addon loads, else wasm alone and says why', () => {
    expect(peerBackends(undefined, NATIVE)).toEqual({
      backends: ['native', 'wasm'],
      line: 'engine backends: native avx512 and wasm, side by side',
    });
    expect(peerBackends(undefined, NO_ADDON)).toEqual({
      backends: ['wasm'],
      line: 'engine backends: wasm only (native: the native addon did not load)',
    });
    expect(peerBackends('wasm,native,wasm', NATIVE).backends).toEqual(['wasm', 'native']);
    expect(() => peerBackends('native', NO_ADDON)).toThrow('the native addon did not load');
    expect(() => peerBackends('tfjs', NATIVE)).toThrow('got tfjs');
    expect(() => peerBackends('', NATIVE)).toThrow('at least one');
  });

  it('names the backend and ISA in the here column, and gives native rows the goals', () => {
    expect(engineHereName('native', 'avx512', 1)).toBe('engine native avx512, 1 thread');
    expect(engineHereName('wasm', 'f32x4', 1)).toBe('engine wasm, 1 thread');
    expect(engineHereName('native', 'avx2', 2)).toBe('engine native avx2, 2 threads');
    expect(backendGoal('native', NATIVE_GOALS.paperSoftmax)).toEqual({ goal: 1.3 });
    expect(backendGoal('wasm', NATIVE_GOALS.paperSoftmax)).toEqual({ goalNote: 'wasm (fallback)' });
  });

  it('lays out the backends side by side beside the same peer figure, also after combining', () => {
    const row = (backend: 'native' | 'wasm', isa: string, here: number) => ({
      workload: 'paper model T = 12, softmax, engine on one core',
      unit: 'steps/s' as const,
      hereName: engineHereName(backend, isa, 1),
      here,
      peer: 200,
      peerName: 'PyTorch twin',
      ...backendGoal(backend, NATIVE_GOALS.paperSoftmax),
    });
    const rounds = [
      [row('native', 'avx512', 300), row('wasm', 'f32x4', 180)],
      [row('native', 'avx512', 240), row('wasm', 'f32x4', 200)],
    ];
    expect(formatPeerTable(combineRounds(rounds)).split('\n').slice(2)).toEqual([
      '| paper model T = 12, softmax, engine on one core | 270 steps/s (engine native avx512, 1 thread) | 200 steps/s (PyTorch twin) | 1.35× (1.20–1.50 over 2 rounds) | ≥ 1.30×: met |',
      '| paper model T = 12, softmax, engine on one core | 190 steps/s (engine wasm, 1 thread) | 200 steps/s (PyTorch twin) | 0.95× (0.90–1.00 over 2 rounds) | wasm (fallback) |',
    ]);
  });
});
