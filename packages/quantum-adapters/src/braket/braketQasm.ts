import type { IsingBatch } from '@boltzmann/ising-core';
import type { BraketSamplerOptions } from './braketSamplerTypes.js';
import { batchProblem } from '../shared/batchProblem.js';

/**
 * The OpenQASM 3 program (Braket dialect: no include, native `zz`) of batch problem `q`: dqa-sim's
 * Trotter circuit (`toQasm3`) with β applied, `calibrate: 'linear-response'` unless `anneal` says
 * otherwise. dqa-sim (and mathjs under it) is loaded on first use.
 *
 * @summary The OpenQASM 3 program (Braket dialect: no include, native `zz`) of batch problem `q`.
 * @param batch the batch.
 * @param q the problem index.
 * @param anneal circuit options (τ, steps, order, schedule, calibrate).
 * @returns the program text.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for a bad index; dqa-sim's DqaError for bad anneal options.
 * @example
 * import { writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { causalBatch } from '@boltzmann/ising-core';
 * import { batchProblemToQasm } from '@boltzmann/quantum-adapters';
 *
 * const batch = causalBatch(Float64Array.from({ length: 16 }, (_, i) => Math.sin(i)), new Float64Array(16).fill(0.2), { batch: 1, length: 4 });
 * writeFileSync(join(tmpdir(), 'p0.qasm'), await batchProblemToQasm(batch, 0, { tau: 8, steps: 32 }));
 * @category Amazon Braket
 */
export async function batchProblemToQasm(
  batch: IsingBatch,
  q: number,
  anneal: BraketSamplerOptions['anneal'] = {},
): Promise<string> {
  const { toQasm3 } = await import('@boltzmann/dqa-sim');
  return toQasm3(batchProblem(batch, q), {
    calibrate: 'linear-response',
    ...anneal,
    beta: batch.beta,
    dialect: 'braket',
  });
}

/** The CreateQuantumTask `action` of an OpenQASM 3 program (`braket.ir.openqasm.program` v1). */
export function openQasmAction(source: string): string {
  return JSON.stringify({
    braketSchemaHeader: { name: 'braket.ir.openqasm.program', version: '1' },
    source,
  });
}
