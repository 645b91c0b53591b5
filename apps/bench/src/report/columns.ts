import { usesSampler } from '@boltzmann/ising-core';
import { ATTENTION_VARIANTS as ALL_VARIANTS } from '@boltzmann/ising-core';
import type { RunRecord } from '../recordTypes.js';

/**
 * The column a run is reported under: its variant (or DQA label), qualified by its sampler and
 * J parameterization unless those are the exact sampler's full J — so `boltzmann` runs with tap
 * and with a banded transfer matrix stay apart in one results folder — and marked when the
 * model has no positional embedding.
 *
 * @example
 * columnOf(record); // 'boltzmann', 'boltzmann (tap)', 'boltzmann (transfer-matrix, banded:8)'
 */
export function columnOf(r: Pick<RunRecord, 'config'>): string {
  const c = r.config;
  // A variant's own column (not one its experiment names by the sampler, as dqa's are).
  const sampled = c.column === c.variant && usesSampler(c.variant);
  const parts = [
    sampled && c.sampler !== 'exact' ? c.sampler : '',
    sampled ? (c.couplingForm ?? '') : '',
    c.positions === 'none' ? 'no positions' : '',
  ].filter((p) => p !== '');
  return parts.length > 0 ? `${c.column} (${parts.join(', ')})` : c.column;
}

/**
 * Orders columns: the variants in their canonical order, each followed by its qualified forms
 * (sorted), then anything else.
 */
export function orderColumns(present: readonly string[]): string[] {
  // The variant's name: a column label may go on with ` (sampler, …)` or `, <group>`.
  const base = (c: string): string => c.split(/ \(|, /)[0]!;
  const rank = (c: string): number => {
    const i = (ALL_VARIANTS as readonly string[]).indexOf(base(c));
    return i < 0 ? ALL_VARIANTS.length : i;
  };
  return [...new Set(present)].sort(
    (a, b) => rank(a) - rank(b) || (a === base(a) ? -1 : b === base(b) ? 1 : a.localeCompare(b)),
  );
}

/**
 * The softmax column a report pairs against: `softmax`, else a qualified one such as
 * `softmax (no positions)` (a grid without positional embeddings), else `softmax`.
 */
export function softmaxColumn(columns: readonly string[]): string {
  if (columns.includes('softmax')) return 'softmax';
  return orderColumns(columns).find((c) => c.startsWith('softmax (')) ?? 'softmax';
}
