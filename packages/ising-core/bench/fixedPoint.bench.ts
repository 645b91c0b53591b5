/**
 * Measurements of the fixed-point samplers (`mean-field`, `tap`), printed as plain tables:
 *
 * 1. forward iterations per problem: damping only vs Anderson, on random single problems;
 * 2. adjoint iterations: conjugate gradients vs the damped Anderson fixed point of the same system;
 * 3. warm start along a causal batch vs cold start (total iterations, max difference);
 * 4. forward + VJP wall time of a causal batch 12 × T (median of `--repeats`).
 *
 * Run from the workspace root: `npx tsx --conditions=@boltzmann/source packages/ising-core/bench/fixedPoint.bench.ts`
 * Options: `--lengths 64,256 --batch 12 --repeats 5 --sections 1,2,3,4`.
 */
import {
  causalBatch,
  createIsingBatch,
  createRng,
  meanFieldEstimate,
  tapEstimate,
} from '../src/index.js';
import type { IsingBatch, MeanFieldOptions } from '../src/index.js';
import { AdjointWorkspace } from '../src/internal/fixedPointBackward.js';
import { FixedPointWorkspace, solveFixedPoint } from '../src/internal/fixedPoint.js';
import { IsingMap } from '../src/internal/isingMaps.js';
import type { IsingMapKind } from '../src/internal/isingMaps.js';
import { symmetricCouplings } from '../src/internal/symmetricCouplings.js';
import { median, option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'fixedPoint.bench.ts [--batch VALUE] [--lengths VALUE] [--repeats VALUE] [--sections VALUE]',
  { batch: 'string', lengths: 'string', repeats: 'string', sections: 'string' },
);

const lengths = option('lengths', '64,256').split(',').map(Number);
const batchSize = Number(option('batch', '12'));
const repeats = Number(option('repeats', '5'));
const sections = new Set(option('sections', '1,2,3,4').split(',').map(Number));
const estimators = { 'mean-field': meanFieldEstimate, tap: tapEstimate } as const;
const kinds: IsingMapKind[] = ['mean-field', 'tap'];

const sum = (xs: Int32Array): number => xs.reduce((s, v) => s + v, 0);

function single(seed: number, n: number, sigmaJ: number): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: n }, () => rng.normal());
  const couplings = Float64Array.from({ length: n * n }, () => rng.normal() * sigmaJ);
  return createIsingBatch({ fields, couplings, spins: [n], stride: n });
}

/** Causal batch with attention-like fields h_ij = q_i·k_j/√d; `rho` correlates successive queries (AR(1)). */
function attentionBatch(
  seed: number,
  batch: number,
  length: number,
  sigmaJ: number,
  rho: number,
  d = 16,
): IsingBatch {
  const rng = createRng(seed);
  const fields = new Float64Array(batch * length * length);
  for (let b = 0; b < batch; b++) {
    const k = Float64Array.from({ length: length * d }, () => rng.normal());
    let q = Float64Array.from({ length: d }, () => rng.normal());
    for (let i = 0; i < length; i++) {
      if (i > 0) q = q.map((v) => rho * v + Math.sqrt(1 - rho * rho) * rng.normal());
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let t = 0; t < d; t++) s += q[t]! * k[j * d + t]!;
        fields[(b * length + i) * length + j] = s / Math.sqrt(d);
      }
    }
  }
  const couplings = Float64Array.from({ length: length * length }, () => rng.normal() * sigmaJ);
  return causalBatch(fields, couplings, { batch, length });
}

if (sections.has(1)) {
  console.log(
    '\n1. forward iterations per problem (n = 64, h ~ N(0,1), J ~ N(0, σ²), 20 problems, tolerance 1e-10, cold start): mean [max], missed',
  );
  console.log(
    '| sampler | σ√n | damping 0.5 only | damping 0 only | damping 0.5 + Anderson 5 | damping 0 + Anderson 5 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const variants: MeanFieldOptions[] = [
    { damping: 0.5, anderson: 0 },
    { damping: 0, anderson: 0 },
    { damping: 0.5, anderson: 5 },
    { damping: 0, anderson: 5 },
  ];
  for (const kind of kinds) {
    for (const scale of [0.3, 0.6, 0.9]) {
      const cells = variants.map((v) => {
        const its: number[] = [];
        let missed = 0;
        for (let s = 0; s < 20; s++) {
          const e = estimators[kind](single(100 + s, 64, scale / 8), { ...v, maxIterations: 5000 });
          its.push(e.diagnostics.iterations[0]!);
          missed += e.diagnostics.missed;
        }
        return `${(its.reduce((a, b) => a + b, 0) / its.length).toFixed(1)} [${Math.max(...its)}]${missed ? `, ${missed} missed` : ''}`;
      });
      console.log(`| ${kind} | ${scale} | ${cells.join(' | ')} |`);
    }
  }
}

if (sections.has(2)) {
  console.log(
    '\n2. adjoint iterations per problem (same problems, tolerance 1e-10): CG vs damped (0.5) Anderson-5 fixed point of z = b + P z',
  );
  console.log('| sampler | σ√n | CG mean [max] | Anderson mean [max] | max |Δw| |');
  console.log('|---|---:|---:|---:|---:|');
  for (const kind of kinds) {
    for (const scale of [0.3, 0.6, 0.9]) {
      const cg: number[] = [];
      const aa: number[] = [];
      let diff = 0;
      for (let s = 0; s < 20; s++) {
        const batch = single(100 + s, 64, scale / 8);
        const m = estimators[kind](batch, { tolerance: 1e-13 }).magnetization;
        const map = new IsingMap(kind, symmetricCouplings(batch, 64), 64, 1, 64);
        map.bind(batch.fields);
        const d = new Float64Array(64);
        map.linearize(m, 64, d);
        const rng = createRng(s);
        const g = Float64Array.from({ length: 64 }, () => rng.normal());
        const settings = { damping: 0.5, tolerance: 1e-10, maxIterations: 5000, memory: 5 };
        const adjoint = new AdjointWorkspace(64);
        const w1 = new Float64Array(64);
        adjoint.solve(map, d, g, 64, settings, w1);
        cg.push(adjoint.iterations);
        // The same system by the engine: z = b + P z from z = 0.
        const z = new Float64Array(64);
        const ws = new FixedPointWorkspace(64, 5);
        const fp = {
          apply: (x: Float64Array, out: Float64Array, n: number) => {
            adjoint.applyP(x, out, n);
            for (let j = 0; j < n; j++) out[j]! += adjoint.b[j]!;
          },
        };
        const bmax = adjoint.b.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
        solveFixedPoint(fp, 64, z, bmax, settings, ws);
        aa.push(ws.iterations);
        for (let j = 0; j < 64; j++)
          diff = Math.max(diff, Math.abs(adjoint.sd[j]! * z[j]! - w1[j]!));
      }
      const f = (xs: number[]): string =>
        `${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)} [${Math.max(...xs)}]`;
      console.log(`| ${kind} | ${scale} | ${f(cg)} | ${f(aa)} | ${diff.toExponential(1)} |`);
    }
  }
}

if (sections.has(3)) {
  console.log(
    `\n3. warm start on a causal batch ${batchSize} × T (σ_J = 0.3/√T, attention-like fields, d = 16): total forward iterations`,
  );
  console.log('| sampler | T | queries ρ | cold | warm | saved | max |Δm| warm vs cold |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const kind of kinds) {
    for (const T of lengths) {
      for (const rho of [0, 0.9, 0.99, 1]) {
        const batch = attentionBatch(7, batchSize, T, 0.3 / Math.sqrt(T), rho);
        const cold = estimators[kind](batch, { warmStart: false });
        const warm = estimators[kind](batch, { warmStart: true });
        const [c, w] = [sum(cold.diagnostics.iterations), sum(warm.diagnostics.iterations)];
        let diff = 0;
        for (let i = 0; i < cold.magnetization.length; i++)
          diff = Math.max(diff, Math.abs(cold.magnetization[i]! - warm.magnetization[i]!));
        console.log(
          `| ${kind} | ${T} | ${rho} | ${c} | ${w} | ${(100 * (1 - w / c)).toFixed(1)} % | ${diff.toExponential(1)} |`,
        );
      }
    }
  }
}

if (sections.has(4)) {
  console.log(
    `\n4. forward + VJP wall time, causal batch ${batchSize} × T, attention-like fields (ρ = 0), median of ${repeats}`,
  );
  console.log(
    '| sampler | T | σ_J | forward ms | fwd+VJP ms | forward its (total) | adjoint its (total) | missed |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const kind of kinds) {
    for (const T of lengths) {
      for (const sigma of [0.02, 0.3 / Math.sqrt(T)]) {
        const batch = attentionBatch(3, batchSize, T, sigma, 0);
        const rng = createRng(9);
        const grad = Float64Array.from({ length: batch.size * batch.stride }, () => rng.normal());
        const fwd: number[] = [];
        const total: number[] = [];
        let its = 0;
        let adj = 0;
        let missed = 0;
        for (let r = 0; r < repeats + 1; r++) {
          const t0 = performance.now();
          const e = estimators[kind](batch);
          const t1 = performance.now();
          const g = e.vjp(grad);
          const t2 = performance.now();
          if (r === 0) continue; // warm-up (JIT)
          fwd.push(t1 - t0);
          total.push(t2 - t0);
          its = sum(e.diagnostics.iterations);
          adj = sum(g.diagnostics.iterations);
          missed = e.diagnostics.missed + g.diagnostics.missed;
        }
        console.log(
          `| ${kind} | ${T} | ${sigma.toFixed(3)} | ${median(fwd).toFixed(1)} | ${median(total).toFixed(1)} | ${its} | ${adj} | ${missed} |`,
        );
      }
    }
  }
}
