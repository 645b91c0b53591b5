import { VARIANT_COLORS } from '../charts/color.js';
import { createLineChart } from '../charts/lineChart.js';
import type { LineChart, Series } from '../charts/lineChartTypes.js';
import { h } from '../dom.js';
import type { EvalResult } from '../training/trainingSession.js';
import { VARIANTS } from '../training/trainConfig.js';
import type { Variant } from '../training/trainConfig.js';

/** Smoothing of the noisy per-batch loss (exponential moving average). */
const EMA = 0.15;
/** Plot at most this many train-loss points per variant (older ones thinned). */
const MAX_POINTS = 600;

interface History {
  readonly train: Array<[number, number]>;
  readonly smooth: Array<[number, number]>;
  readonly evalLoss: Array<[number, number]>;
  readonly evalAccuracy: Array<[number, number]>;
  ema: number | undefined;
}

export interface TrainResults {
  reset(accuracyLabel: string): void;
  addStep(step: number, losses: Record<Variant, number>): void;
  addEval(step: number, results: Record<Variant, EvalResult>): void;
  /** Calls `callback` once everything given so far is drawn: at once, or after the next frame's redraw. */
  afterDraw(callback: () => void): void;
}

function emptyHistory(): History {
  return { train: [], smooth: [], evalLoss: [], evalAccuracy: [], ema: undefined };
}

function thin(points: Array<[number, number]>): Array<[number, number]> {
  if (points.length <= MAX_POINTS) return points;
  const every = Math.ceil(points.length / MAX_POINTS);
  return points.filter((_, i) => i % every === 0 || i === points.length - 1);
}

/** A variant's row of the stats table, by column. */
type StatsCells = Record<'step' | 'train' | 'evalLoss' | 'accuracy', HTMLTableCellElement>;

/** The loss chart (train and held-out) and the held-out accuracy chart, side by side. */
function resultCharts(parent: HTMLElement): { loss: LineChart; accuracy: LineChart } {
  const charts = h('div', { class: 'charts' });
  parent.append(charts);
  const loss = createLineChart(charts, {
    title: 'Loss',
    xLabel: 'step',
    yLabel: 'cross-entropy (nats)',
    xDomain: [0, undefined],
    emptyText: 'press Train',
  });
  const accuracy = createLineChart(charts, {
    title: 'Held-out accuracy',
    xLabel: 'step',
    yLabel: 'accuracy (%)',
    xDomain: [0, undefined],
    yDomain: [0, 100], // one scale before training and after it
    emptyText: 'press Train',
  });
  return { loss, accuracy };
}

/** The table of the latest figures, one row per variant: its caption and each row's cells. */
function statsTable(parent: HTMLElement): {
  caption: HTMLElement;
  cells: Map<Variant, StatsCells>;
} {
  const caption = h('caption', { class: 'note' });
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'stats', id: 'train-stats' },
    caption,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'variant'),
        h('th', { scope: 'col', class: 'col-step' }, 'step'),
        h('th', { scope: 'col', title: 'smoothed batch loss' }, 'train loss'),
        h('th', { scope: 'col' }, 'held-out loss, first → now'),
        h('th', { scope: 'col' }, 'accuracy'),
      ),
    ),
    body,
  );
  parent.append(h('div', { class: 'table-wrap' }, table));
  const cells = new Map<Variant, StatsCells>();
  for (const variant of VARIANTS) {
    const dot = h('span', { class: 'dot', 'aria-hidden': 'true' });
    dot.style.background = VARIANT_COLORS[variant];
    const row = {
      step: h('td', { class: 'col-step' }),
      train: h('td'),
      evalLoss: h('td'),
      accuracy: h('td'),
    };
    body.append(
      h(
        'tr',
        { 'data-variant': variant },
        h('th', { scope: 'row' }, dot, variant),
        row.step,
        row.train,
        row.evalLoss,
        row.accuracy,
      ),
    );
    cells.set(variant, row);
  }
  return { caption, cells };
}

/** A variant's loss series (raw batch loss, faint; smoothed; held-out) and its accuracy series. */
function variantSeries(variant: Variant, hv: History): { loss: Series[]; accuracy: Series } {
  const color = VARIANT_COLORS[variant];
  // softmax is drawn first and wider, so it shows around boltzmann where the curves coincide.
  const width = variant === 'softmax' ? 4 : 2;
  const loss: Series[] = [
    {
      label: `${variant} raw batch loss`,
      color,
      points: thin(hv.train),
      opacity: 0.18,
      hideInLegend: true,
    },
    { label: `${variant} · train (smoothed)`, color, points: thin(hv.smooth), width },
    {
      label: `${variant} · held-out`,
      color,
      points: hv.evalLoss,
      mode: 'line+points',
      dashed: true,
      width,
    },
  ];
  return {
    loss,
    accuracy: { label: variant, color, points: hv.evalAccuracy, mode: 'line+points', width },
  };
}

/** Fills a variant's table row: last step, smoothed train loss, held-out loss first → now, accuracy. */
function showStats(row: StatsCells, hv: History): void {
  const last = hv.train.at(-1);
  row.step.textContent = last ? String(last[0]) : '0';
  row.train.textContent = hv.ema === undefined ? '—' : hv.ema.toFixed(3);
  const first = hv.evalLoss[0];
  const latest = hv.evalLoss.at(-1);
  row.evalLoss.textContent =
    first && latest ? `${first[1].toFixed(3)} → ${latest[1].toFixed(3)}` : '—';
  row.evalLoss.dataset.first = first ? String(first[1]) : '';
  row.evalLoss.dataset.latest = latest ? String(latest[1]) : '';
  row.evalLoss.dataset.latestStep = latest ? String(latest[0]) : '';
  const acc = hv.evalAccuracy.at(-1);
  row.accuracy.textContent = acc ? `${acc[1].toFixed(1)} %` : '—';
}

/**
 * Loss and accuracy curves of both variants, and a table of the latest figures.
 *
 * @param parent - the panel's results column
 * @returns `reset` for a new run, `addStep` and `addEval` for its progress (redrawn once per frame)
 */
export function createTrainResults(parent: HTMLElement): TrainResults {
  const { loss, accuracy } = resultCharts(parent);
  const { caption, cells } = statsTable(parent);
  let history: Record<Variant, History> = { softmax: emptyHistory(), boltzmann: emptyHistory() };
  let accuracyLabel = '';
  let pending = false;
  let drawn: Array<() => void> = [];

  const render = (): void => {
    pending = false;
    const lossSeries: Series[] = [];
    const accuracySeries: Series[] = [];
    for (const variant of VARIANTS) {
      const series = variantSeries(variant, history[variant]);
      lossSeries.push(...series.loss);
      accuracySeries.push(series.accuracy);
      showStats(cells.get(variant)!, history[variant]);
    }
    loss.update(lossSeries);
    accuracy.update(accuracySeries);
    caption.textContent = accuracyLabel ? `Accuracy: ${accuracyLabel}.` : '';
    const waiting = drawn;
    drawn = [];
    for (const callback of waiting) callback();
  };
  const schedule = (): void => {
    if (!pending) {
      pending = true;
      requestAnimationFrame(render);
    }
  };

  return {
    reset(label) {
      history = { softmax: emptyHistory(), boltzmann: emptyHistory() };
      accuracyLabel = label;
      schedule();
    },
    addStep(step, losses) {
      for (const variant of VARIANTS) {
        const hv = history[variant];
        const value = losses[variant];
        hv.train.push([step, value]);
        hv.ema = hv.ema === undefined ? value : (1 - EMA) * hv.ema + EMA * value;
        hv.smooth.push([step, hv.ema]);
      }
      schedule();
    },
    addEval(step, results) {
      for (const variant of VARIANTS) {
        history[variant].evalLoss.push([step, results[variant].loss]);
        history[variant].evalAccuracy.push([step, 100 * results[variant].accuracy]);
      }
      schedule();
    },
    afterDraw(callback) {
      if (pending) drawn.push(callback);
      else callback();
    },
  };
}
