// What a grid's hardware calls cost: the unit costs its sampler's dry run wrote (`estimate.json`,
// quantum-adapters' CostEstimate) scaled by the bench's own count of problems and jobs, for one
// training step and the whole grid, with the provider's documented limits beside them.
import { costOf } from '@boltzmann/quantum-adapters';
import type { Cost, CostEstimate } from '@boltzmann/quantum-adapters';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from '../benchError.js';
import type { SamplerTraffic } from './types.js';

const isCost = (c: unknown): c is Cost =>
  typeof c === 'object' &&
  c !== null &&
  Object.entries(c).every(
    ([k, v]) => (k === 'qpuSeconds' || k === 'usd') && typeof v === 'number' && v >= 0,
  );

/**
 * The estimate a sampler's dry run wrote for its first call (`<dir>/<sampler>-0001/estimate.json`),
 * or undefined when it wrote none (a plugin without estimates).
 *
 * @throws BENCH_DRY_RUN when the file is there but is not a CostEstimate.
 */
export function readCostEstimate(dir: string, sampler: string): CostEstimate | undefined {
  const path = join(dir, `${sampler}-0001`, 'estimate.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let e: Partial<CostEstimate>;
  try {
    e = JSON.parse(text) as Partial<CostEstimate>;
  } catch (error) {
    throw new BenchError('BENCH_DRY_RUN', `${path} is not JSON`, { cause: error });
  }
  const ok =
    isCost(e.perProblem) &&
    isCost(e.perJob) &&
    Number.isInteger(e.problemsPerJob) &&
    e.problemsPerJob! > 0 &&
    Array.isArray(e.limits) &&
    Array.isArray(e.assumptions);
  if (!ok)
    throw new BenchError(
      'BENCH_DRY_RUN',
      `${path} lacks the cost estimate's perProblem, perJob, problemsPerJob, limits or assumptions`,
    );
  return e as CostEstimate;
}

/** The jobs of `traffic` in the provider's own sense (IBM jobs, D-Wave submits, Braket tasks). */
function jobsOf(provider: CostEstimate['provider'], t: SamplerTraffic): number {
  if (provider === 'ibm') return t.ibmJobs;
  if (provider === 'dwave') return t.submitRequests;
  return t.problems;
}

/** The cost of `traffic` at the estimate's unit costs. */
export function trafficCost(estimate: CostEstimate, traffic: SamplerTraffic): Cost {
  return costOf(estimate, traffic.problems, jobsOf(estimate.provider, traffic));
}

const seconds = (x: number): string =>
  `${x.toLocaleString('en-US', { maximumFractionDigits: x < 10 ? 2 : 0 })} QPU seconds`;

/** A cost as text: `≈ 1,234 QPU seconds (20.6 min)`, `≈ $12.30`, or both. */
export function costText(c: Cost): string {
  const parts: string[] = [];
  if (c.qpuSeconds !== undefined)
    parts.push(
      `≈ ${seconds(c.qpuSeconds)}${c.qpuSeconds >= 120 ? ` (${(c.qpuSeconds / 3600).toLocaleString('en-US', { maximumFractionDigits: 2 })} h)` : ''}`,
    );
  if (c.usd !== undefined)
    parts.push(
      `≈ $${c.usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
    );
  return parts.length === 0 ? 'no price known' : parts.join(', ');
}

/** The lines that put the grid's cost beside each documented limit, and the estimate's assumptions. */
export function limitLines(estimate: CostEstimate, total: Cost): string[] {
  const lines: string[] = [];
  for (const l of estimate.limits) {
    const unit = l.qpuSeconds !== undefined ? 'qpuSeconds' : 'usd';
    const cost = total[unit];
    if (cost === undefined || l[unit] === undefined) continue;
    lines.push(
      `  limit: ${l.what}; the grid needs ${(cost / l[unit]!).toLocaleString('en-US', { maximumFractionDigits: 1 })}× it`,
    );
  }
  for (const a of estimate.assumptions) lines.push(`  cost: ${a}`);
  return lines;
}
