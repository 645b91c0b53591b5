import { columnOf, orderColumns } from './columns.js';
import { groupSuffix } from './plots/plots.js';
import { meanStd } from './stats.js';
import { signed, spread } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import type { RunRecord } from '../recordTypes.js';

/** The distance bands of {@link couplingBandsTable}: near, middle, and the far half of the window. */
export function distanceBands(length: number): {
  near: [number, number];
  mid: [number, number];
  far: [number, number];
} {
  const farFrom = Math.max(9, Math.ceil(length / 2));
  return { near: [1, 4], mid: [5, 8], far: [farFrom, length - 1] };
}

/** Mean of `row[d − 1]` over distances `from … to` (null when the band is empty). */
function bandMean(row: readonly number[], [from, to]: [number, number]): number | null {
  const values = row.slice(from - 1, to);
  return values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/**
 * The learned J by distance band, per column, T and layer: mean over heads and seeds of the mean
 * J at distances 1–4 (near), 5–8 and the far half (`d ≥ max(9, T/2)`), and how many
 * (seed, head) pairs show the paper's pattern, near J > 0 and far J < 0. Couplings that are zero
 * by construction (a banded J beyond its band) read "0 (outside the band)", and those heads are
 * not counted as showing the pattern.
 *
 * @returns the table, or null when no record has a coupling profile.
 */
export function couplingBandsTable(records: readonly RunRecord[]): Table | null {
  const cells = new Map<
    string,
    {
      column: string;
      T: number;
      layer: number;
      near: number[];
      mid: number[];
      far: number[];
      fixedFar: boolean;
      pattern: number;
      pairs: number;
    }
  >();
  const group = groupSuffix(records.filter((r) => r.couplingProfile));
  for (const r of records) {
    const profile = r.couplingProfile;
    if (!profile) continue;
    const T = r.config.length;
    const column = `${columnOf(r)}${group(r)}`;
    const bands = distanceBands(T);
    profile.forEach((row, k) => {
      const layer = Math.floor(k / r.config.heads);
      const key = `${column}|${T}|${layer}`;
      const c = cells.get(key) ?? {
        column,
        T,
        layer,
        near: [],
        mid: [],
        far: [],
        fixedFar: true,
        pattern: 0,
        pairs: 0,
      };
      const near = bandMean(row, bands.near);
      const mid = bandMean(row, bands.mid);
      const far = bandMean(row, bands.far);
      if (near !== null) c.near.push(near);
      if (mid !== null) c.mid.push(mid);
      if (far !== null) c.far.push(far);
      const farValues = row.slice(bands.far[0] - 1, bands.far[1]);
      if (farValues.some((v) => v !== 0)) c.fixedFar = false;
      c.pairs++;
      if (near !== null && far !== null && near > 0 && far < 0) c.pattern++;
      cells.set(key, c);
    });
  }
  if (cells.size === 0) return null;
  const order = orderColumns([...cells.values()].map((c) => c.column));
  const rows = [...cells.values()].sort(
    (a, b) => order.indexOf(a.column) - order.indexOf(b.column) || a.T - b.T || a.layer - b.layer,
  );
  const fmt = (xs: number[]): string => {
    if (xs.length === 0) return '—';
    const s = meanStd(xs);
    return spread(signed(s.mean, 3), s.std.toFixed(3), s.n);
  };
  return {
    head: [
      'variant',
      'T',
      'layer',
      'J, d = 1–4',
      'J, d = 5–8',
      'J, far half',
      'near > 0 and far < 0',
    ],
    body: rows.map((c) => {
      const { far } = distanceBands(c.T);
      return [
        c.column,
        String(c.T),
        String(c.layer),
        fmt(c.near),
        fmt(c.mid),
        far[0] > far[1]
          ? '—'
          : c.fixedFar
            ? '0 (outside the band)'
            : `${fmt(c.far)} (d ≥ ${far[0]})`,
        c.fixedFar ? '—' : `${c.pattern} of ${c.pairs}`,
      ];
    }),
  };
}
