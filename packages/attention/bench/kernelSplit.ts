// The split of engine steps by kernel (scripts/benchEngine.ts): every kernel call of a trainer's
// engine timed, GEMMs grouped by layout and shape with their GFLOP/s against the peak, the rest
// by kernel, and what is left of the step (JavaScript between kernels, the causal op, copies).
import type { EngineTrainer, TokenBatch } from '../src/index.js';
import { TRANSFER_COST, transferStates } from '../src/engine/transfer.js';
import type { TransferKernels, TransferOperands } from '../src/engine/transfer.js';

interface Row {
  ms: number;
  flops: number;
}

const KERNELS = [
  'gemm',
  'layerNorm',
  'layerNormBackward',
  'biasGelu',
  'biasGeluBackward',
  'causalSoftmax',
  'causalSoftmaxBackward',
  'causalSigmoid',
  'causalSigmoidBackward',
  'crossEntropy',
  'adamW',
  'gradientNorm',
  'addInto',
  'embed',
  'embedBackward',
  'biasRows',
  'residual',
  'masked',
  'scale',
  'columnSums',
] as const;

/** What {@link kernelSplit} measured, per step: the table, and the figures a roofline needs. */
export interface KernelSplit {
  readonly table: string;
  /** The step's matrix work (every GEMM call), in GFLOP. */
  readonly matrixGflop: number;
  /** The GEMMs' time and everything else's (other kernels, JavaScript, the causal op), in ms. */
  readonly gemmMs: number;
  readonly otherMs: number;
  /** The transfer-matrix kernels' time (ms) and arithmetic (GFLOP) per step (0 without them). */
  readonly transferMs: number;
  readonly transferGflop: number;
}

/**
 * Times the transfer-matrix kernels where the engine has them (rows `transferForward` and
 * `transferBackward`, with the flops of TRANSFER_COST); returns the undo.
 */
function timeTransfer(trainer: EngineTrainer, rows: Map<string, Row>): () => void {
  const transfer = (trainer.engine.kernels as { transfer?: TransferKernels }).transfer as
    | Record<'transferForward' | 'transferBackward', (a: TransferOperands) => unknown>
    | undefined;
  if (transfer === undefined) return () => {};
  const saved = { ...transfer };
  for (const name of ['transferForward', 'transferBackward'] as const)
    transfer[name] = (a) => {
      const t0 = performance.now();
      const out = saved[name](a);
      const row = rows.get(name) ?? { ms: 0, flops: 0 };
      row.ms += performance.now() - t0;
      row.flops +=
        transferStates(a) *
        TRANSFER_COST[name === 'transferForward' ? 'forward' : 'backward'].flops;
      rows.set(name, row);
      return out;
    };
  return () => Object.assign(transfer, saved);
}

/** Times `steps` steps of `trainer` with every kernel call timed; returns the table and its figures. */
export async function kernelSplit(
  trainer: EngineTrainer,
  batch: TokenBatch,
  steps: number,
  peak: number,
): Promise<KernelSplit> {
  const kernels = trainer.engine.kernels as unknown as Record<string, (...a: unknown[]) => unknown>;
  const rows = new Map<string, Row>();
  const saved = KERNELS.map((name) => [name, kernels[name]!] as const);
  for (const [name, run] of saved)
    kernels[name] = (...args: unknown[]) => {
      const t0 = performance.now();
      const out = run(...args);
      const a = args[0] as { layout?: string; m: number; n: number; k: number; batch?: number };
      const key =
        name === 'gemm'
          ? `gemm ${a.layout ?? 'nn'} ${a.m}×${a.n}×${a.k}${a.batch ? ` (${a.batch})` : ''}`
          : name;
      const row = rows.get(key) ?? { ms: 0, flops: 0 };
      row.ms += performance.now() - t0;
      if (name === 'gemm') row.flops += 2 * a.m * a.n * a.k * (a.batch ?? 1);
      rows.set(key, row);
      return out;
    };
  const restoreTransfer = timeTransfer(trainer, rows);
  let total = 0;
  try {
    for (let s = 0; s < steps; s++) {
      const t0 = performance.now();
      await trainer.step(batch);
      total += performance.now() - t0;
    }
  } finally {
    for (const [name, run] of saved) kernels[name] = run;
    restoreTransfer();
  }
  const lines = [
    `kernel | ms/step | % of step | GFLOP/s | % of the ${peak.toFixed(1)} GFLOP/s peak`,
    '---|---|---|---|---',
  ];
  let timed = 0;
  let gemmMs = 0;
  let gemmFlops = 0;
  for (const [key, row] of [...rows].sort((a, b) => b[1].ms - a[1].ms)) {
    timed += row.ms;
    const ms = row.ms / steps;
    const rate = row.flops > 0 ? row.flops / row.ms / 1e6 : undefined;
    if (rate !== undefined && key.startsWith('gemm'))
      [gemmMs, gemmFlops] = [gemmMs + row.ms, gemmFlops + row.flops];
    const pct = ((100 * row.ms) / total).toFixed(0);
    lines.push(
      `${key} | ${ms.toFixed(3)} | ${pct} % | ${rate?.toFixed(1) ?? ''} | ${rate ? `${((100 * rate) / peak).toFixed(0)} %` : ''}`,
    );
  }
  const gemmRate = gemmFlops / gemmMs / 1e6;
  lines.push(
    `all GEMMs | ${(gemmMs / steps).toFixed(2)} | ${((100 * gemmMs) / total).toFixed(0)} % | ${gemmRate.toFixed(1)} | ${((100 * gemmRate) / peak).toFixed(0)} %`,
  );
  lines.push(
    `the rest (JavaScript, causal op, copies) | ${((total - timed) / steps).toFixed(2)} | ${((100 * (total - timed)) / total).toFixed(0)} % | |`,
  );
  lines.push(
    `step (mean of ${steps}, kernels timed) | ${(total / steps).toFixed(2)} | 100 % | ${(gemmFlops / total / 1e6).toFixed(1)} (matrix work) |`,
  );
  const transfer = ['transferForward', 'transferBackward'].map(
    (k) => rows.get(k) ?? { ms: 0, flops: 0 },
  );
  return {
    table: lines.join('\n'),
    transferMs: (transfer[0]!.ms + transfer[1]!.ms) / steps,
    transferGflop: (transfer[0]!.flops + transfer[1]!.flops) / steps / 1e9,
    matrixGflop: gemmFlops / steps / 1e9,
    gemmMs: gemmMs / steps,
    otherMs: (total - gemmMs) / steps,
  };
}
