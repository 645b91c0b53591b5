/*
 * Whether a grid reproduces a committed one (issue 40: the committed results on the native
 * backend): pairs the runs of two results folders by run id and prints, run by run, both final
 * metrics and their relative difference, beside the seed spread of the committed cell (the
 * sample std of its seeds' metric), then the largest of each. Usage:
 *   node --import tsx --conditions=@boltzmann/source src/studies/reproduceAgainst.ts <new results> <committed results>
 */
import { readRecords } from '../results/runFiles.js';
import type { RunRecord } from '../recordTypes.js';

const [fresh, committed] = process.argv.slice(2);
if (fresh === undefined || committed === undefined) {
  console.error('usage: reproduceAgainst.ts <new results> <committed results>');
  process.exit(2);
}

/** The cell of a run: its config without the seed. */
const cellOf = (r: RunRecord): string => `${r.config.variant} T=${r.config.length}`;

/** Sample std of each cell's final metrics. */
function spreads(records: readonly RunRecord[]): Map<string, number> {
  const cells = new Map<string, number[]>();
  for (const r of records) cells.set(cellOf(r), [...(cells.get(cellOf(r)) ?? []), r.finalMetric]);
  const out = new Map<string, number>();
  for (const [cell, xs] of cells) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, xs.length - 1);
    out.set(cell, Math.sqrt(v));
  }
  return out;
}

const before = new Map(readRecords(committed).map((r) => [r.id, r]));
const spread = spreads([...before.values()]);
let worst = 0;
let worstOfSpread = 0;
let paired = 0;
console.log('run | committed | new | relative difference | |difference| / seed std of the cell');
for (const r of readRecords(fresh)) {
  const old = before.get(r.id);
  if (old === undefined) {
    console.log(`${r.id} | (not in ${committed})`);
    continue;
  }
  paired++;
  const rel = (r.finalMetric - old.finalMetric) / old.finalMetric;
  const ofSpread =
    Math.abs(r.finalMetric - old.finalMetric) / (spread.get(cellOf(old)) ?? Number.NaN);
  worst = Math.max(worst, Math.abs(rel));
  worstOfSpread = Math.max(worstOfSpread, ofSpread);
  console.log(
    `${cellOf(r)} s${r.config.seed} | ${old.finalMetric.toFixed(4)} | ${r.finalMetric.toFixed(4)} | ${(100 * rel).toFixed(3)} % | ${ofSpread.toFixed(3)}`,
  );
}
console.log(
  `${paired} runs paired; largest |relative difference| ${(100 * worst).toFixed(3)} %; largest |difference| ${worstOfSpread.toFixed(3)} of its cell's seed std`,
);
