// The fake SAPI's QPU: samples a submitted job by exact enumeration, answering in `qp` format.
import { createRng } from '@boltzmann/ising-core';
import type { SapiSolver } from '../sapiTypes.js';
import { decodeFloat64LE, encodeBase64, encodeFloat64LE, encodeInt32LE } from '../base64.js';
import { drawBoltzmann } from '../../shared/testing/boltzmannDraw.js';

/** The fields of a submitted SAPI problem that the fake reads (as a client sent them, unchecked). */
export interface SubmittedJob {
  readonly solver?: { readonly name?: string };
  readonly data: { readonly lin: unknown; readonly quad: unknown };
  readonly params?: {
    readonly auto_scale?: boolean;
    readonly num_reads?: number;
    readonly answer_mode?: string;
  };
  readonly label?: string;
}

function autoScaleFactor(solver: SapiSolver, lin: number[], quad: number[]): number {
  const p = solver.properties as {
    h_range: [number, number];
    extended_j_range?: [number, number];
    j_range: [number, number];
  };
  const jr = p.extended_j_range ?? p.j_range;
  const terms = [
    lin.length ? Math.max(...lin) / p.h_range[1] : 0,
    lin.length ? Math.min(...lin) / p.h_range[0] : 0,
    quad.length ? Math.max(...quad) / jr[1] : 0,
    quad.length ? Math.min(...quad) / jr[0] : 0,
  ].map((t) => Math.max(0, t));
  const f = Math.max(...terms);
  return f > 0 ? f : 1;
}

/** Samples a submitted job exactly on its solver and answers in SAPI's `qp` format. */
export function sampleJob(
  solver: SapiSolver,
  job: SubmittedJob,
  seed: number,
): Record<string, unknown> {
  const props = solver.properties as {
    qubits: number[];
    couplers: [number, number][];
    num_qubits: number;
  };
  const linAll = [...decodeFloat64LE(job.data.lin, 'lin')];
  if (linAll.length !== props.qubits.length)
    throw new Error(`lin has ${linAll.length} values for ${props.qubits.length} qubits`);
  const active = props.qubits.filter((_, i) => !Number.isNaN(linAll[i]));
  const col = new Map(active.map((q, k) => [q, k]));
  const lin = props.qubits.map((_, i) => linAll[i]!).filter((v) => !Number.isNaN(v));
  const activeCouplers = props.couplers.filter(([a, b]) => col.has(a) && col.has(b));
  const quad = [...decodeFloat64LE(job.data.quad, 'quad')];
  if (quad.length !== activeCouplers.length)
    throw new Error(`quad has ${quad.length} values for ${activeCouplers.length} active couplers`);
  const params = job.params ?? {};
  const factor = params.auto_scale === false ? 1 : autoScaleFactor(solver, lin, quad);
  const pairs = activeCouplers.map(([a, b]) => [col.get(a)!, col.get(b)!] as const);
  const energy = (bits: number): number => {
    let e = 0;
    for (let k = 0; k < lin.length; k++) e += lin[k]! * ((bits >> k) & 1 ? 1 : -1);
    pairs.forEach(([a, b], c) => {
      e += quad[c]! * (((bits >> a) ^ (bits >> b)) & 1 ? -1 : 1);
    });
    return e;
  };
  const reads = drawBoltzmann(
    active.length,
    energy,
    1 / factor,
    params.num_reads ?? 1,
    createRng(seed),
  );
  let rows: number[];
  let counts: number[];
  if (params.answer_mode === 'raw') {
    rows = reads;
    counts = [];
  } else {
    const hist = new Map<number, number>();
    for (const s of reads) hist.set(s, (hist.get(s) ?? 0) + 1);
    rows = [...hist.keys()].sort((x, y) => energy(x) - energy(y) || x - y);
    counts = rows.map((s) => hist.get(s)!);
  }
  const bytesPer = Math.ceil(active.length / 8);
  const packed = new Uint8Array(rows.length * bytesPer);
  rows.forEach((s, i) => {
    for (let k = 0; k < active.length; k++)
      if ((s >> k) & 1) packed[i * bytesPer + (k >> 3)]! |= 0x80 >> (k & 7);
  });
  return {
    format: 'qp',
    num_variables: props.num_qubits,
    active_variables: encodeInt32LE(active),
    energies: encodeFloat64LE(rows.map(energy)),
    ...(counts.length ? { num_occurrences: encodeInt32LE(counts) } : {}),
    solutions: encodeBase64(packed),
    timing: { qpu_access_time: 1000 + 10 * reads.length },
  };
}
