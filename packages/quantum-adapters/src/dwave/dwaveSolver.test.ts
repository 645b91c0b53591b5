import { describe, expect, it } from 'vitest';
import { fakeChimeraSolver } from './testing/fakeSolvers.js';
import { selectDwaveSolver } from '../index.js';
import type { SapiSolver } from '../index.js';

const chimera = (name: string, load: number, rows = 2): SapiSolver => ({
  ...fakeChimeraSolver({ rows, columns: rows, shore: 4 }, { name }),
  avg_load: load,
});
const hybrid: SapiSolver = {
  identity: { name: 'hybrid_binary_quadratic_model_version2' },
  status: 'ONLINE',
  avg_load: 0,
  properties: { category: 'hybrid', supported_problem_types: ['bqm'] },
};
const pegasus: SapiSolver = {
  identity: { name: 'Advantage_fake' },
  status: 'ONLINE',
  avg_load: 0.05,
  properties: {
    category: 'qpu',
    supported_problem_types: ['qubo', 'ising'],
    qubits: [0, 1],
    couplers: [[0, 1]],
    topology: { type: 'pegasus', shape: [16] },
  },
};
const offline: SapiSolver = { ...chimera('Offline_chimera', 0), status: 'OFFLINE' };

describe('selectDwaveSolver', () => {
  const all = [hybrid, chimera('Busy', 0.9, 4), chimera('Quiet', 0.2), pegasus, offline];

  it('should pick the least-loaded online QPU that accepts ising, honouring each filter', () => {
    expect(selectDwaveSolver(all).identity.name).toBe('Advantage_fake');
    expect(selectDwaveSolver(all, { topology: 'chimera' }).identity.name).toBe('Quiet');
    expect(selectDwaveSolver(all, { minQubits: 64 }).identity.name).toBe('Busy');
    expect(selectDwaveSolver(all, { name: /^B/ }).identity.name).toBe('Busy');
    expect(selectDwaveSolver(all, { qpu: false }).identity.name).toBe(
      'hybrid_binary_quadratic_model_version2',
    );
    expect(selectDwaveSolver(all, 'Offline_chimera').identity.name).toBe('Offline_chimera');
  });

  it('should explain what was available when nothing matches', () => {
    expect(() => selectDwaveSolver(all, { minQubits: 10_000 })).toThrow(
      expect.objectContaining({
        code: 'ADAPTER_NO_SOLVER',
        message: expect.stringContaining(
          'available: ["hybrid_binary_quadratic_model_version2","Busy","Quiet"',
        ),
      }),
    );
    expect(() => selectDwaveSolver([], 'X')).toThrow(
      expect.objectContaining({ code: 'ADAPTER_NO_SOLVER', retryable: false }),
    );
  });
});
