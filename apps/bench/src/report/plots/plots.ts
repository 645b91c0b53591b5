import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { columnOf } from '../columns.js';
import { CURVE_PANELS, panelCount, panelLayout } from './layout.js';
import { headlineUnderneath, variantLayers } from './variantColors.js';
import { withVariantLegend } from './variantLegend.js';
import { vegaLogger } from './vegaLog.js';
import type { VegaLogger } from './vegaLog.js';
import type { RunRecord } from '../../recordTypes.js';

/**
 * Renders a Vega-Lite spec to SVG headlessly (compile to Vega, `renderer: 'none'`). Vega's and
 * Vega-Lite's warnings go to `logger` (vegaLog.ts: the `boltzmann:bench:vega` debug channel), not
 * to the console.
 *
 * @param spec a Vega-Lite spec with inline data.
 * @param logger where the compiler's and the view's messages go.
 * @returns the SVG document text.
 * @example
 * const svg = await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' } } });
 */
export async function renderSvg(
  spec: TopLevelSpec,
  logger: VegaLogger = vegaLogger(),
): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec, { logger }).spec), {
    renderer: 'none',
    logger,
  });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A label for the non-length part of a run's grid cell (mode, pairs, FFN, d_model); plots are per dataset. */
export function groupLabel(r: RunRecord): string {
  const c = r.config;
  const parts: string[] = [];
  if (c.dataset === 'brackets') parts.push(c.mode);
  if (c.recall) parts.push(`pairs ${c.recall.kvPairs}`);
  parts.push(`FFN ${c.ffn ? 'on' : 'off'}`, `d=${c.dModel}`);
  return parts.join(', ');
}

/** Panel names in reading order, numbers compared as numbers (`T=4, T=8, T=12`, not `T=12, T=4, …`). */
export function numericOrder(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * The top of a faceted spec: the schema, the data, and one panel per value of `field`, in
 * {@link numericOrder}, `columns` to a row, the given axes scaled per panel.
 */
export function panels<T extends Record<string, unknown>>(
  values: readonly T[],
  field: keyof T & string,
  columns: number,
  independent: readonly ('x' | 'y')[] = [],
) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values: values as T[] },
    facet: {
      field,
      type: 'nominal' as const,
      title: null,
      sort: numericOrder(values.map((v) => String(v[field]))),
    },
    columns,
    ...(independent.length > 0
      ? { resolve: { scale: Object.fromEntries(independent.map((a) => [a, 'independent'])) } }
      : {}),
  };
}

/** Axis labels with at most 4 significant digits and no trailing zeros. */
export const ROUNDED = { format: '.4~r' } as const;

/**
 * Axis labels with as many significant digits as ticks about a tenth of the values' span apart
 * need, no trailing zeros: 4 for one value, `17.935` (5) between 17.93 and 17.98, where
 * {@link ROUNDED} would print 17.93, 17.93, 17.94, … . With several panels (`groups`, each scaled
 * on its own), the digits the finest one needs.
 */
export function roundedAxis(...groups: readonly (readonly number[])[]): { format: string } {
  const digits = groups.map((values) => {
    const finite = values.filter(Number.isFinite);
    const top = Math.max(...finite.map(Math.abs));
    const span = Math.max(...finite) - Math.min(...finite);
    if (!(span > 0 && top > 0)) return 4;
    return Math.floor(Math.log10(top)) - Math.floor(Math.log10(span / 12)) + 1;
  });
  return { format: `.${Math.min(10, Math.max(2, ...digits))}~r` };
}

/** `, <group>` after a label only when the records span several groups (FFN on and off, …). */
export function groupSuffix(records: readonly RunRecord[]): (r: RunRecord) => string {
  const several = new Set(records.map(groupLabel)).size > 1;
  return (r) => (several ? `, ${groupLabel(r)}` : '');
}

/** Names the column in panel titles only when several columns train J (the DQA grid). */
export function columnPrefix(records: readonly RunRecord[]): (r: RunRecord) => string {
  const several = new Set(records.map((r) => columnOf(r))).size > 1;
  return (r) => (several ? `${columnOf(r)}, ` : '');
}

/** The axis title of a run's evaluation metric. */
export function metricTitle(r: RunRecord | undefined): string {
  return r?.metricName === 'accuracy' ? 'test accuracy' : 'validation perplexity';
}

/** Each panel's values (a plot whose panels scale y on their own). */
function byPanel(values: readonly { panel: string; value: number }[]): number[][] {
  const panels = new Map<string, number[]>();
  for (const v of values) panels.set(v.panel, [...(panels.get(v.panel) ?? []), v.value]);
  return [...panels.values()];
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
  const columns = values.map((v) => v.column);
  const { columns: wrap, ...size } = panelLayout(panelCount(values, 'panel'), CURVE_PANELS);
  const encoding = {
    x: { field: 'step', type: 'quantitative', axis: { format: 'd' } },
    y: {
      field: 'value',
      type: 'quantitative',
      title: yTitle,
      scale: { zero: false },
      axis: roundedAxis(...byPanel(values)),
    },
    detail: { field: 'run', type: 'nominal' },
  };
  // Points as well as lines on short curves: a run with one evaluation still shows.
  const points = Math.max(0, ...records.map((r) => pick(r).length)) <= 30;
  return withVariantLegend(columns, {
    ...panels(values, 'panel', wrap, ['y']),
    spec: { ...size, layer: headlineUnderneath(variantLayers(columns, encoding, points), columns) },
  });
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
  const { columns: _, ...fidelitySize } = panelLayout(2, {
    maxColumns: 2,
    aspect: 0.62,
    legend: 50,
    maxHeight: 320,
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'metric', type: 'nominal', title: null },
    resolve: { scale: { y: 'independent' } },
    spec: {
      ...fidelitySize,
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
