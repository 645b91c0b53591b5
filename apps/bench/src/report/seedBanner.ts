// The note at the top of a report whose cells each hold one seed: its tables print `(n = 1)` in
// place of a spread, and its intervals and p-values are all `—`, so the reader is told why first.
import type { RunRecord } from '../recordTypes.js';

/** What the banner says (plain text: the same in Markdown and HTML). */
export const ONE_SEED_BANNER =
  'One seed per cell: the tables show single values marked (n = 1), without a spread. Confidence intervals and p-values need at least 2 seeds (e.g. --seeds 0,1).';

/** The most seeds any grid cell (a run's config without its seed) has among the records. */
export function seedsPerCell(records: readonly RunRecord[]): number {
  const seeds = new Map<string, Set<number>>();
  for (const r of records) {
    const { seed, ...cell } = r.config;
    const key = JSON.stringify(cell);
    seeds.set(key, (seeds.get(key) ?? new Set()).add(seed));
  }
  return Math.max(0, ...[...seeds.values()].map((s) => s.size));
}

/**
 * The banner of a report, or null when some cell has two seeds or more (then its tables have
 * spreads, intervals and p-values).
 *
 * @example
 * seedBanner(records) ?? ''; // the banner when every cell trained one seed
 */
export function seedBanner(records: readonly RunRecord[]): string | null {
  return records.length > 0 && seedsPerCell(records) < 2 ? ONE_SEED_BANNER : null;
}
