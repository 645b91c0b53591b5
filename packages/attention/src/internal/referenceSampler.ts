import type { BatchEstimate, IsingBatch, Sampler } from '@boltzmann/ising-core';

/** Exact probabilities of one problem by brute force: p(s) ∝ exp(β(Σ h s + Σ_{j<k} J s s)). */
function distribution(batch: IsingBatch, q: number): { n: number; p: Float64Array } {
  const n = batch.spins[q]!;
  const { stride, beta } = batch;
  const size = 1 << n;
  const logw = new Float64Array(size);
  let max = -Infinity;
  for (let s = 0; s < size; s++) {
    let e = 0;
    for (let j = 0; j < n; j++) {
      const sj = (s >> j) & 1 ? 1 : -1;
      e += batch.fields[q * stride + j]! * sj;
      for (let k = j + 1; k < n; k++) e += batch.couplings[j * stride + k]! * sj * ((s >> k) & 1 ? 1 : -1);
    }
    logw[s] = beta * e;
    if (logw[s]! > max) max = logw[s]!;
  }
  const p = new Float64Array(size);
  let z = 0;
  for (let s = 0; s < size; s++) z += p[s] = Math.exp(logw[s]! - max);
  for (let s = 0; s < size; s++) p[s] = p[s]! / z;
  return { n, p };
}

const spin = (s: number, j: number): number => ((s >> j) & 1 ? 1 : -1);

/**
 * A slow, obviously-correct exact sampler (O(n² 2^n) per problem) used by this package's
 * tests as an independent reference for the layer: moments and covariance VJPs by direct
 * enumeration, `∂m_j/∂h_k = β Cov(s_j, s_k)`, `∂m_j/∂J_kl = β Σ Cov(s_j, s_k s_l)`.
 */
export function createReferenceSampler(name = 'reference'): Sampler {
  return {
    name,
    capabilities: { exact: true, maxSpins: 12, async: false, deterministic: true },
    estimate(batch: IsingBatch): BatchEstimate {
      const { size, stride } = batch;
      const dists = Array.from({ length: size }, (_, q) => distribution(batch, q));
      const magnetization = new Float64Array(size * stride);
      dists.forEach(({ n, p }, q) => {
        for (let s = 0; s < p.length; s++) for (let j = 0; j < n; j++) magnetization[q * stride + j]! += p[s]! * spin(s, j);
      });
      return {
        magnetization,
        vjp(grad: Float64Array) {
          const fields = new Float64Array(size * stride);
          const couplings = new Float64Array(stride * stride);
          dists.forEach(({ n, p }, q) => {
            const g = (s: number): number => {
              let v = 0;
              for (let j = 0; j < n; j++) v += grad[q * stride + j]! * spin(s, j);
              return v;
            };
            let eg = 0;
            for (let s = 0; s < p.length; s++) eg += p[s]! * g(s);
            for (let s = 0; s < p.length; s++) {
              const c = batch.beta * p[s]! * (g(s) - eg);
              for (let k = 0; k < n; k++) {
                fields[q * stride + k]! += c * spin(s, k);
                for (let l = k + 1; l < n; l++) couplings[k * stride + l]! += c * spin(s, k) * spin(s, l);
              }
            }
          });
          return { fields, couplings };
        },
      };
    },
  };
}

/** The reference sampler answering through a promise that resolves after a timer (a stand-in for remote hardware). */
export function createDelayedSampler(inner: Sampler, delayMs = 1): Sampler {
  return {
    name: `${inner.name}-delayed`,
    capabilities: { ...inner.capabilities, async: true },
    estimate: (batch) =>
      new Promise<BatchEstimate>((resolve, reject) => {
        setTimeout(() => {
          try {
            resolve(inner.estimate!(batch) as BatchEstimate);
          } catch (error) {
            reject(error);
          }
        }, delayMs);
      }),
  };
}
