import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { columnOf } from './columns.js';
import { meanStd } from './stats.js';
import type { RunRecord } from './types.js';

/**
 * Renders a Vega-Lite spec to SVG headlessly (compile to Vega, `renderer: 'none'`).
 *
 * @param spec a Vega-Lite spec with inline data.
 * @returns the SVG document text.
 * @example
 * const svg = await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' } } });
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A label for the non-length part of a run's grid cell (mode, FFN, d_model); plots are per dataset. */
export function groupLabel(r: RunRecord): string {
  const c = r.config;
  const parts: string[] = [];
  if (c.dataset === 'brackets') parts.push(c.mode);
  parts.push(`FFN ${c.ffn ? 'on' : 'off'}`, `d=${c.dModel}`);
  return parts.join(', ');
}

/** Panel names in reading order, numbers compared as numbers (`T=4, T=8, T=12`, not `T=12, T=4, …`). */
export function numericOrder(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** Axis labels with at most 4 significant digits and no trailing zeros. */
const ROUNDED = { format: '.4~r' } as const;

/** Names the column in panel titles only when several columns train J (the DQA grid). */
function columnPrefix(records: readonly RunRecord[]): (r: RunRecord) => string {
  const several = new Set(records.map((r) => columnOf(r))).size > 1;
  return (r) => (several ? `${columnOf(r)}, ` : '');
}

function metricTitle(r: RunRecord | undefined): string {
  return r?.metricName === 'accuracy' ? 'test accuracy' : 'validation perplexity';
}

/** Metric against context length, one line per column, mean ± std error bars; faceted by group. */
export function metricVsLengthSpec(records: readonly RunRecord[]): TopLevelSpec {
  const cells = new Map<string, { group: string; column: string; T: number; values: number[] }>();
  for (const r of records) {
    const group = groupLabel(r);
    const key = `${group}|${columnOf(r)}|${r.config.length}`;
    let c = cells.get(key);
    if (!c) {
      c = { group, column: columnOf(r), T: r.config.length, values: [] };
      cells.set(key, c);
    }
    c.values.push(r.finalMetric);
  }
  const values = [...cells.values()].map((c) => {
    const s = meanStd(c.values);
    return {
      group: c.group,
      column: c.column,
      T: c.T,
      mean: s.mean,
      lo: s.mean - s.std,
      hi: s.mean + s.std,
      n: s.n,
    };
  });
  const y = metricTitle(records[0]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      field: 'group',
      type: 'nominal',
      title: null,
      sort: numericOrder(values.map((v) => v.group)),
    },
    columns: 3,
    spec: {
      width: 260,
      height: 180,
      layer: [
        {
          mark: { type: 'line', point: true },
          encoding: {
            x: {
              field: 'T',
              type: 'quantitative',
              title: 'context length T',
              axis: { format: 'd', tickMinStep: 1 },
            },
            y: {
              field: 'mean',
              type: 'quantitative',
              title: `${y} (mean ± std over seeds)`,
              scale: { zero: false },
              axis: ROUNDED,
            },
            color: {
              field: 'column',
              type: 'nominal',
              title: 'variant',
              legend: { labelLimit: 400 },
            },
          },
        },
        {
          mark: { type: 'errorbar', ticks: true },
          encoding: {
            x: { field: 'T', type: 'quantitative' },
            y: { field: 'lo', type: 'quantitative', title: `${y} (mean ± std over seeds)` },
            y2: { field: 'hi' },
            color: { field: 'column', type: 'nominal' },
          },
        },
      ],
    },
  };
}

/** Mean learned J over seeds per (group, T, column), as heatmap cells (j < l only). */
function meanCouplings(
  records: readonly RunRecord[],
): { panel: string; j: number; l: number; J: number }[] {
  const prefix = columnPrefix(records);
  const acc = new Map<string, { T: number; sum: Float64Array; n: number }>();
  for (const r of records) {
    if (!r.couplings) continue;
    const T = r.config.length;
    const panel = `${prefix(r)}${groupLabel(r)}, T=${T}`;
    let a = acc.get(panel);
    if (!a) {
      a = { T, sum: new Float64Array(T * T), n: 0 };
      acc.set(panel, a);
    }
    for (let i = 0; i < T * T; i += 1) a.sum[i]! += r.couplings[i] ?? 0;
    a.n += 1;
  }
  const out: { panel: string; j: number; l: number; J: number }[] = [];
  for (const [panel, a] of acc) {
    for (let j = 0; j < a.T; j += 1)
      for (let l = j + 1; l < a.T; l += 1) out.push({ panel, j, l, J: a.sum[j * a.T + l]! / a.n });
  }
  return out;
}

/** The learned couplings J_jl (mean over seeds) as heatmaps, one panel per run group; null if no run has J. */
export function couplingHeatmapSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const values = meanCouplings(records.filter((r) => r.config.variant === 'boltzmann'));
  if (values.length === 0) return null;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: numericOrder(values.map((v) => v.panel)),
    },
    columns: 3,
    resolve: { scale: { x: 'independent', y: 'independent' } },
    spec: {
      width: 180,
      height: 180,
      mark: 'rect',
      encoding: {
        x: { field: 'l', type: 'ordinal', title: 'key l' },
        y: { field: 'j', type: 'ordinal', title: 'key j' },
        color: {
          field: 'J',
          type: 'quantitative',
          title: 'J_jl',
          scale: { scheme: 'redblue', domainMid: 0, reverse: true },
        },
        tooltip: [{ field: 'J', type: 'quantitative', format: '.4f' }],
      },
    },
  };
}

/** Mean J_jl against distance |j − l| (mean ± std over seeds of each run's distance average). */
export function couplingDistanceSpec(records: readonly RunRecord[]): TopLevelSpec | null {
  const cells = new Map<string, { series: string; d: number; values: number[] }>();
  const prefix = columnPrefix(records.filter((r) => r.config.variant === 'boltzmann'));
  for (const r of records) {
    if (!r.couplings || r.config.variant !== 'boltzmann') continue;
    const T = r.config.length;
    const series = `${prefix(r)}${groupLabel(r)}, T=${T}`;
    for (let d = 1; d < T; d += 1) {
      let sum = 0;
      for (let j = 0; j + d < T; j += 1) sum += r.couplings[j * T + j + d] ?? 0;
      const key = `${series}|${d}`;
      let c = cells.get(key);
      if (!c) {
        c = { series, d, values: [] };
        cells.set(key, c);
      }
      c.values.push(sum / (T - d));
    }
  }
  if (cells.size === 0) return null;
  const values = [...cells.values()].map((c) => {
    const s = meanStd(c.values);
    return { series: c.series, d: c.d, mean: s.mean, lo: s.mean - s.std, hi: s.mean + s.std };
  });
  const seriesOrder = numericOrder(values.map((v) => v.series));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    width: 420,
    height: 260,
    layer: [
      { mark: { type: 'rule', color: '#999' }, encoding: { y: { datum: 0 } } },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x: {
            field: 'd',
            type: 'quantitative',
            title: 'distance |j − l|',
            axis: { format: 'd', tickMinStep: 1 },
          },
          y: {
            field: 'mean',
            type: 'quantitative',
            title: 'mean J_jl at that distance (± std over seeds)',
            axis: ROUNDED,
          },
          color: {
            field: 'series',
            type: 'nominal',
            title: 'boltzmann run',
            legend: { labelLimit: 400 },
            sort: seriesOrder,
          },
        },
      },
      {
        mark: { type: 'errorbar', ticks: true },
        encoding: {
          x: { field: 'd', type: 'quantitative' },
          y: {
            field: 'lo',
            type: 'quantitative',
            title: 'mean J_jl at that distance (± std over seeds)',
          },
          y2: { field: 'hi' },
          // The same sort as the line layer's: Vega warns when unioned domains sort differently.
          color: { field: 'series', type: 'nominal', sort: seriesOrder },
        },
      },
    ],
  };
}

/** One panel per (group, T), one line per run: `pick` chooses the curve (evaluations or train loss). */
function runCurvesSpec(
  records: readonly RunRecord[],
  pick: (r: RunRecord) => readonly { step: number; value: number }[],
  yTitle: string,
): TopLevelSpec {
  const values = records.flatMap((r) =>
    pick(r).map((p) => ({
      panel: `${groupLabel(r)}, T=${r.config.length}`,
      run: `${columnOf(r)} s${r.config.seed}`,
      column: columnOf(r),
      step: p.step,
      value: p.value,
    })),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: numericOrder(values.map((v) => v.panel)),
    },
    columns: 3,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 260,
      height: 160,
      // Points as well as lines on short curves: a run with one evaluation still shows.
      mark: { type: 'line', point: Math.max(0, ...records.map((r) => pick(r).length)) <= 30 },
      encoding: {
        x: { field: 'step', type: 'quantitative', axis: { format: 'd' } },
        y: {
          field: 'value',
          type: 'quantitative',
          title: yTitle,
          scale: { zero: false },
          axis: ROUNDED,
        },
        color: { field: 'column', type: 'nominal', title: 'variant', legend: { labelLimit: 400 } },
        detail: { field: 'run', type: 'nominal' },
      },
    },
  };
}

/** Evaluation metric against step for every run, one panel per (group, T), one line per run. */
export function curvesSpec(records: readonly RunRecord[]): TopLevelSpec {
  return runCurvesSpec(records, (r) => r.evalMetric, metricTitle(records[0]));
}

/** The recorded training loss (mean over each logging interval) against step, as {@link curvesSpec}. */
export function trainLossSpec(records: readonly RunRecord[]): TopLevelSpec {
  return runCurvesSpec(records, (r) => r.trainLoss, 'train loss (interval mean)');
}

/** One row of a DQA fidelity sweep. */
export interface FidelityPoint {
  readonly tau: number;
  readonly steps: number;
  readonly kl: number;
  readonly magnetizationError: number;
}

/** KL divergence and magnetization error of the DQA output against τ and Trotter steps. */
export function fidelitySpec(rows: readonly FidelityPoint[]): TopLevelSpec {
  const values = rows.flatMap((r) => [
    { tau: r.tau, steps: r.steps, metric: 'KL(p_exact ‖ p_dqa)', value: Math.max(r.kl, 1e-12) },
    {
      tau: r.tau,
      steps: r.steps,
      metric: 'max |m_dqa − m_exact|',
      value: Math.max(r.magnetizationError, 1e-12),
    },
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'metric', type: 'nominal', title: null },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 300,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'steps',
          type: 'quantitative',
          title: 'Trotter steps',
          scale: { type: 'log', base: 2 },
        },
        y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: null },
        color: { field: 'tau', type: 'ordinal', title: 'τ' },
      },
    },
  };
}
