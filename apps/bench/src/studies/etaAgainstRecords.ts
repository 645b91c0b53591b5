/*
 * Prints, per cell of finished runs (config without the seed), the ETA model's estimate of a
 * run's wall time beside the measured wall times of its seeds. The records come from grids
 * run with two workers on two cores, the contention the model assumes. Records do not say what
 * trained them: pass `--tfjs` for results trained on the tfjs path (every grid before 3 Dec 2026),
 * else the engine on one thread is assumed. Usage:
 *   node --import tsx --conditions=@boltzmann/source src/scripts/etaAgainstRecords.ts [--tfjs] <results>...
 */
import { estimateRunSeconds } from '../grid/eta.js';
import { formatDuration } from '../grid/progress.js';
import { readRecords } from '../results/runFiles.js';
import type { RunConfig } from '../types.js';

const label = (c: RunConfig): string =>
  [
    c.dataset,
    c.layers ? `L${c.layers}` : '',
    c.variant,
    c.sampler && c.variant !== 'softmax' && c.variant !== 'sigmoid' ? c.sampler : '',
    c.couplingForm ?? '',
    `T=${c.length}`,
    `d=${c.dModel}`,
    c.ffn ? 'ffn' : 'no-ffn',
    `${c.steps} steps`,
  ]
    .filter(Boolean)
    .join(' ');

const args = process.argv.slice(2);
const path = { name: args.includes('--tfjs') ? ('tfjs' as const) : ('wasm' as const), threads: 1 };
const cells = new Map<string, { estimate: number; measured: number[] }>();
for (const dir of args.filter((a) => a !== '--tfjs')) {
  for (const r of readRecords(dir)) {
    const key = label(r.config);
    const cell = cells.get(key) ?? { estimate: estimateRunSeconds(r.config, path), measured: [] };
    cell.measured.push(r.wallSeconds);
    cells.set(key, cell);
  }
}
const ratios: number[] = [];
for (const [key, { estimate, measured }] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
  const sorted = [...measured].sort((a, b) => a - b);
  const k = Math.floor(sorted.length / 2);
  const mid = sorted.length % 2 ? sorted[k]! : (sorted[k - 1]! + sorted[k]!) / 2;
  ratios.push(mid / estimate);
  console.log(
    `${key.padEnd(64)} eta ${formatDuration(estimate).padStart(7)}  measured ${measured
      .map((m) => formatDuration(m))
      .join(', ')
      .padEnd(24)} median/eta ${(mid / estimate).toFixed(2)}`,
  );
}
const within = ratios.filter((x) => x >= 2 / 3 && x <= 1.5).length;
console.log(
  `${within} of ${ratios.length} cells within the model's stated ±50 % (median/eta 0.67–1.5)`,
);
