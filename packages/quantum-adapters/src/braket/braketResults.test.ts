import { describe, expect, it } from 'vitest';
import { decodeBraketResults, isAdapterError } from '../index.js';

const header = { name: 'braket.task_result.gate_model_task_result', version: '1' };

describe('decodeBraketResults', () => {
  it('should map measured bit 0 to +1 and follow measuredQubits order, merging equal shots', () => {
    const set = decodeBraketResults(
      {
        braketSchemaHeader: header,
        measuredQubits: [1, 0],
        measurements: [
          [0, 1],
          [0, 1],
          [1, 1],
        ],
      },
      2,
    );
    // Row [0,1] means qubit1 = 0, qubit0 = 1 → s0 = −1, s1 = +1.
    expect([...set.states]).toEqual([-1, 1, -1, -1]);
    expect([...set.weights]).toEqual([2, 1]);
  });

  it('should read big-endian measurementProbabilities times shots', () => {
    const set = decodeBraketResults(
      {
        braketSchemaHeader: header,
        measuredQubits: [0, 1],
        measurementProbabilities: { '01': 0.25, '10': 0.75 },
        taskMetadata: { shots: 100 },
      },
      2,
    );
    // '01': qubit0 = 0 (+1), qubit1 = 1 (−1). Row order is not part of the contract.
    const rows = new Map(
      [...set.weights].map((w, i) => [`${set.states[2 * i]},${set.states[2 * i + 1]}`, w]),
    );
    expect(rows).toEqual(
      new Map([
        ['1,-1', 25],
        ['-1,1', 75],
      ]),
    );
  });

  it('should reject malformed documents', () => {
    const bad: [unknown, string][] = [
      [[], 'not a JSON object'],
      [{ braketSchemaHeader: header, measuredQubits: [0, 1] }, 'neither'],
      [
        { braketSchemaHeader: header, measuredQubits: [0, 1], measurements: [] },
        'empty measurements',
      ],
      [
        {
          braketSchemaHeader: header,
          measuredQubits: [0, 1],
          measurementProbabilities: { '01': 0.5 },
          taskMetadata: { shots: 10 },
        },
        'sum to 0.5',
      ],
      [
        {
          braketSchemaHeader: header,
          measuredQubits: [0, 1],
          measurementProbabilities: { '012': 1 },
          taskMetadata: { shots: 10 },
        },
        'entry "012"',
      ],
      [
        {
          braketSchemaHeader: header,
          measuredQubits: [0, 1],
          measurementProbabilities: { '01': 1 },
        },
        'taskMetadata.shots',
      ],
      [
        { braketSchemaHeader: header, measuredQubits: 'all', measurements: [[0, 0]] },
        'measuredQubits',
      ],
    ];
    for (const [doc, fragment] of bad) {
      try {
        decodeBraketResults(doc, 2);
        throw new Error(`accepted ${JSON.stringify(doc)}`);
      } catch (e) {
        expect(isAdapterError(e, 'ADAPTER_MALFORMED'), String(e)).toBe(true);
        expect((e as Error).message).toContain(fragment);
      }
    }
  });
});
