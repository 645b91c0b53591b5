/**
 * The matrix products of one training step of the paper model (d 64, T 12) and of GPT `baby`
 * (d 128, T 64), the shapes both GEMM benchmarks time (scripts/benchEngineGemm.ts on wasm,
 * scripts/benchNativeGemm.ts native beside wasm).
 */
import type { GemmLayout } from '../src/engine/gemm.js';

/** One product of a model step: op(A) m × k times op(B) k × n, `batch` times. */
export interface Shape {
  readonly name: string;
  readonly layout: GemmLayout;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly batch?: number;
}

/** A linear layer x·W (rows × in → out): forward, input gradient dY·Wᵀ, weight gradient Xᵀ·dY. */
function linear(name: string, rows: number, inp: number, out: number): Shape[] {
  return [
    { name: `${name} fwd`, layout: 'nn', m: rows, n: out, k: inp },
    { name: `${name} dX`, layout: 'nt', m: rows, n: inp, k: out },
    { name: `${name} dW`, layout: 'tn', m: inp, n: out, k: rows },
  ];
}

/** The per-head products of attention at T tokens, head width dh, `batch` sequences × heads. */
function heads(name: string, t: number, dh: number, batch: number): Shape[] {
  return [
    { name: `${name} Q·Kᵀ`, layout: 'nt', m: t, n: t, k: dh, batch },
    { name: `${name} P·V`, layout: 'nn', m: t, n: dh, k: t, batch },
    { name: `${name} dP=dO·Vᵀ`, layout: 'nt', m: t, n: t, k: dh, batch },
    { name: `${name} dV=Pᵀ·dO`, layout: 'tn', m: t, n: dh, k: t, batch },
  ];
}

export const SHAPES: Shape[] = [
  ...linear('paper qkv 64→192', 768, 64, 192),
  ...linear('paper ffn 64→256', 768, 64, 256),
  ...linear('paper ffn 256→64', 768, 256, 64),
  ...linear('paper head 64→65', 768, 64, 65),
  ...heads('paper T12 d64', 12, 64, 64),
  ...linear('baby qkv 128→384', 768, 128, 384),
  ...linear('baby ffn 128→512', 768, 128, 512),
  ...linear('baby ffn 512→128', 768, 512, 128),
  ...linear('baby head 128→65', 768, 128, 65),
  ...heads('baby T64 4×32', 64, 32, 48),
];
