import { createIsingBatch } from '@boltzmann/ising-core';
import { bruteForceMoments } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { batchProblemToBqm, dimodBqmJson } from '../index.js';

describe('dimodBqmJson', () => {
  it('should match the to_serializable example of QUANTUM_APIS.md §1.8', () => {
    const json = dimodBqmJson({ labels: ['a', 'b'], linear: [-1, 1], quadratic: [[0, 1, -1]] });
    expect(JSON.stringify(json)).toBe(
      '{"type":"BinaryQuadraticModel","version":{"bqm_schema":"3.0.0"},"use_bytes":false,"index_type":"int32","bias_type":"float64","num_variables":2,"num_interactions":1,"variable_labels":["a","b"],"variable_type":"SPIN","offset":0,"info":{},"linear_biases":[-1,1],"quadratic_biases":[-1],"quadratic_head":[0],"quadratic_tail":[1]}',
    );
  });

  it('should order interactions head < tail lexicographically and refuse bad input', () => {
    const json = dimodBqmJson({
      linear: [0, 0, 0],
      quadratic: [
        [2, 1, 0.5],
        [0, 2, 1.5],
        [1, 0, -2],
      ],
    });
    expect(json.quadratic_head).toEqual([0, 0, 1]);
    expect(json.quadratic_tail).toEqual([1, 2, 2]);
    expect(json.quadratic_biases).toEqual([-2, 1.5, 0.5]);
    for (const model of [
      { linear: [Number.NaN], quadratic: [] },
      { linear: [0, 0], quadratic: [[0, 0, 1]] as [number, number, number][] },
      {
        linear: [0, 0],
        quadratic: [
          [0, 1, 1],
          [1, 0, 2],
        ] as [number, number, number][],
      },
    ]) {
      expect(() => dimodBqmJson(model)).toThrow(
        expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
      );
    }
  });
});

describe('batchProblemToBqm', () => {
  it('should give a BQM whose temperature-1 Boltzmann distribution is the batch problem at β', () => {
    const fields = Float64Array.of(0.4, -0.7, 0.2, 9, 9, 9);
    const couplings = Float64Array.of(0, 0.9, -0.3, 0, 0, 0.5, 0, 0, 0);
    const batch = createIsingBatch({ fields, couplings, spins: [3, 2], stride: 3, beta: 1.7 });
    const bqm = batchProblemToBqm(batch, 0);
    expect(bqm.variable_labels).toEqual([0, 1, 2]);
    expect(bqm.linear_biases).toEqual([-0.4 * 1.7, 0.7 * 1.7, -0.2 * 1.7]);
    // p(s) ∝ exp(−E_bqm(s)) must equal the physics Boltzmann distribution at β.
    const exact = bruteForceMoments(fields, couplings, 3, 1.7).probabilities;
    const weights = Array.from({ length: 8 }, (_, s) => {
      const spin = (j: number) => ((s >> j) & 1 ? 1 : -1);
      let e = bqm.offset;
      bqm.linear_biases.forEach((h, j) => (e += h * spin(j)));
      bqm.quadratic_biases.forEach(
        (J, k) => (e += J * spin(bqm.quadratic_head[k]!) * spin(bqm.quadratic_tail[k]!)),
      );
      return Math.exp(-e);
    });
    const z = weights.reduce((a, b) => a + b, 0);
    weights.forEach((w, s) => expect(w / z).toBeCloseTo(exact[s]!, 12));
    const second = batchProblemToBqm(batch, 1);
    expect(second.num_variables).toBe(2);
    expect(second.quadratic_biases).toEqual([-0.9 * 1.7]);
    expect(() => batchProblemToBqm(batch, 2)).toThrow(
      expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }),
    );
  });
});
