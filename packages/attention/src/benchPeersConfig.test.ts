import { describe, expect, it } from 'vitest';
import {
  blasVerdict,
  describeConfig,
  fastestConfig,
  peerEnv,
  threadConfigs,
} from '../bench/peers/peerConfigs.js';
import { combineRounds, formatPeerTable, speedRatio } from '../bench/peers/peerTable.js';

const REFERENCE = '/usr/lib/x86_64-linux-gnu/blas/libblas.so.3';
const PTHREAD = '/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so';

describe("benchPeers tries each peer's thread configurations (issue 38)", () => {
  it('never oversubscribes: OpenMP and OpenBLAS are never both above one thread', () => {
    const configs = threadConfigs(2);
    expect(configs).toEqual([
      { torch: 1, omp: 1, openblas: 1 },
      { torch: 2, omp: 2, openblas: 1 },
      { torch: 1, omp: 1, openblas: 2 },
    ]);
    for (const c of threadConfigs(8)) {
      expect(c.torch).toBe(c.omp);
      expect(Math.min(c.omp, c.openblas)).toBe(1);
    }
    expect(threadConfigs(1)).toEqual([{ torch: 1, omp: 1, openblas: 1 }]);
  });

  it("drops the machine's OpenBLAS core-type settings from a peer's environment", () => {
    const env = peerEnv(
      {
        PATH: '/bin',
        OPENBLAS_CORETYPE: 'Haswell',
        OPENBLAS_L2_SIZE: '262144',
        OMP_NUM_THREADS: '8',
      },
      { torch: 2, omp: 2, openblas: 1 },
    );
    expect(env).toEqual({
      PATH: '/bin',
      OMP_NUM_THREADS: '2',
      OPENBLAS_NUM_THREADS: '1',
      MKL_NUM_THREADS: '2',
    });
  });

  it('picks the fastest configuration that ran, and names it with its BLAS', () => {
    const trials = [
      { config: { torch: 2, omp: 2, openblas: 1 }, ms: 120 },
      { config: { torch: 1, omp: 1, openblas: 1 }, ms: 'failed' },
      { config: { torch: 1, omp: 1, openblas: 2 }, ms: 31 },
    ];
    expect(fastestConfig(trials)).toEqual({ torch: 1, omp: 1, openblas: 2 });
    expect(fastestConfig([{ config: { torch: 1, omp: 1, openblas: 1 }, ms: 'x' }])).toBeUndefined();
    expect(describeConfig({ torch: 1, omp: 1, openblas: 1 }, blasVerdict([PTHREAD]))).toBe(
      'torch 1 thread, OMP 1, OpenBLAS 1 (pthread)',
    );
    expect(describeConfig({ torch: 2, omp: 2, openblas: 1 }, blasVerdict([REFERENCE]))).toBe(
      'torch 2 threads, OMP 2, reference BLAS',
    );
  });

  it('tells the reference BLAS from OpenBLAS, MKL and an unknown BLAS', () => {
    expect(blasVerdict([REFERENCE])).toEqual({ kind: 'reference', label: 'reference BLAS' });
    expect(
      blasVerdict([PTHREAD, '/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3']),
    ).toEqual({ kind: 'openblas', label: 'OpenBLAS (pthread)' });
    expect(blasVerdict(['/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3'])).toEqual({
      kind: 'openblas',
      label: 'OpenBLAS (openmp)',
    });
    expect(blasVerdict([], 'mkl')).toEqual({ kind: 'other', label: 'MKL' });
    expect(blasVerdict([], 'generic')).toEqual({ kind: 'unknown', label: 'BLAS unknown' });
  });

  it('prints a reference-BLAS row as invalid, without a ratio, also after combining rounds', () => {
    const row = {
      workload: 'baby',
      unit: 'ms/iteration',
      here: 60,
      peer: 400,
      peerName: 'nanoGPT',
      goal: 0.5,
      invalid: 'reference BLAS',
    } as const;
    expect(speedRatio(row)).toBeUndefined();
    const combined = combineRounds([[row], [{ ...row, here: 70 }]]);
    expect(speedRatio(combined[0]!)).toBeUndefined();
    expect(formatPeerTable(combined).split('\n')[2]).toBe(
      '| baby | 65.0 ms/iteration (tfjs-wasm) | 400 ms/iteration (nanoGPT; INVALID: reference BLAS) | — (invalid) | ≥ 0.50×: not measured |',
    );
  });

  it('gives whole processes in seconds, the shorter being the faster', () => {
    const row = { workload: 'w', unit: 's', here: 21.8, peer: 6.2, peerName: 'p' } as const;
    expect(speedRatio(row)!.toFixed(2)).toBe('0.28');
    expect(formatPeerTable([row])).toContain('| 21.8 s (tfjs-wasm) | 6.2 s (p) | 0.28× |');
  });
});
