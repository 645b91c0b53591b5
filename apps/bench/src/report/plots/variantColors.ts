import { orderColumns } from '../columns.js';

// Colour alone does not tell the variants apart (a line drawn under another vanishes, and
// colour-blind readers lose red from green), so each kind of column also keeps a stroke dash
// and a point shape, and the headline variant (the solid line) is drawn first, under the dashes.

/** A kind of column's look: colour, dash (Vega `strokeDash`, [] = solid) and point shape. */
interface Look {
  readonly colour: string;
  readonly dash: readonly number[];
  readonly shape: string;
}

const SOLID: readonly number[] = [];

/** The look a kind of column keeps in every plot of every report (first match wins). */
const LOOKS: readonly [RegExp, Look][] = [
  [/^softmax$/, { colour: '#4d4d4d', dash: [6, 3], shape: 'square' }],
  [/^softmax \(/, { colour: '#9e9e9e', dash: [6, 3, 1, 3], shape: 'triangle-right' }],
  [/^sigmoid/, { colour: '#2ca02c', dash: [2, 2], shape: 'triangle-up' }],
  [/^coupling/, { colour: '#9467bd', dash: [8, 3, 2, 3], shape: 'diamond' }],
  [/^boltzmann$/, { colour: '#1f77b4', dash: SOLID, shape: 'circle' }],
  [/^boltzmann \(transfer-matrix/, { colour: '#d62728', dash: [10, 2], shape: 'cross' }],
  [/^boltzmann \(tap, relative/, { colour: '#8c564b', dash: [4, 2, 1, 2], shape: 'triangle-left' }],
  [/^boltzmann \(tap, banded/, { colour: '#e377c2', dash: [1, 2], shape: 'arrow' }],
  [/^boltzmann \(tap/, { colour: '#ff7f0e', dash: [4, 4], shape: 'triangle-down' }],
  [/^boltzmann \(mean-field/, { colour: '#17becf', dash: [12, 3, 3, 3], shape: 'wedge' }],
];

/** For anything else (DQA columns, plugins), and for a second column of the same kind. */
const SPARE_COLOURS = ['#bcbd22', '#17becf', '#7f7f7f', '#aec7e8', '#ffbb78', '#98df8a', '#c5b0d5'];
const SPARE_DASHES: readonly (readonly number[])[] = [
  SOLID,
  [6, 3],
  [2, 2],
  [8, 3, 2, 3],
  [10, 2],
  [4, 4],
  [1, 2],
  [4, 2, 1, 2],
  [12, 3, 3, 3],
  [6, 3, 1, 3],
];
const SPARE_SHAPES = [
  'circle',
  'square',
  'triangle-up',
  'diamond',
  'cross',
  'triangle-down',
  'triangle-right',
  'triangle-left',
  'arrow',
  'wedge',
];

/**
 * The headline variant's columns: exact Boltzmann attention and its sampled forms. Plots draw
 * them first, under the others' dashed lines.
 */
export function isHeadline(column: string): boolean {
  return /^boltzmann($| \()/.test(column);
}

/** The first of `preferred` then `spares` not yet `used` (a repeat only once every spare is taken). */
function pick<T>(preferred: T | undefined, spares: readonly T[], used: Set<string>): T {
  const key = (v: T) => JSON.stringify(v);
  const free = [preferred, ...spares].find((v) => v !== undefined && !used.has(key(v)));
  const chosen = free ?? spares[used.size % spares.length]!;
  used.add(key(chosen));
  return chosen;
}

/**
 * The Vega-Lite colour, dash and shape scales giving each column its fixed look, so that tap is
 * orange and dashed and the transfer matrix red in every plot, in variant order (the legend's
 * order). Within one plot no two columns share a colour, a dash or a shape (up to 10 columns).
 *
 * @param columns the columns the plot draws (any order, repeats allowed).
 */
export function variantScales(columns: readonly string[]): {
  colour: { domain: string[]; range: string[] };
  dash: { domain: string[]; range: number[][] };
  shape: { domain: string[]; range: string[] };
} {
  const domain = orderColumns(columns);
  const used = { colour: new Set<string>(), dash: new Set<string>(), shape: new Set<string>() };
  const looks = domain.map((c) => {
    const look = LOOKS.find(([pattern]) => pattern.test(c))?.[1];
    return {
      colour: pick(look?.colour, SPARE_COLOURS, used.colour),
      dash: [...pick(look?.dash, SPARE_DASHES, used.dash)],
      shape: pick(look?.shape, SPARE_SHAPES, used.shape),
    };
  });
  return {
    colour: { domain, range: looks.map((l) => l.colour) },
    dash: { domain, range: looks.map((l) => l.dash) },
    shape: { domain, range: looks.map((l) => l.shape) },
  };
}

/**
 * The colour scale of {@link variantScales} alone.
 *
 * @param columns the columns the plot draws (any order, repeats allowed).
 */
export function colourScale(columns: readonly string[]): { domain: string[]; range: string[] } {
  return variantScales(columns).colour;
}

/**
 * The `color`, `strokeDash` and `shape` encodings of a plot with one series per column (field
 * `column`), without legends: {@link variantLegend} (variantLegend.ts) draws the one legend that
 * shows colour, dash and shape together.
 *
 * @param columns the columns the plot draws.
 */
export function variantEncoding(columns: readonly string[]) {
  const scales = variantScales(columns);
  const channel = { field: 'column', type: 'nominal', title: 'variant', legend: null } as const;
  return {
    color: { ...channel, scale: scales.colour },
    strokeDash: { ...channel, scale: scales.dash },
    shape: { ...channel, scale: scales.shape },
  };
}

/**
 * The layers of one series per column: its line in the column's colour and dash and, with
 * `points`, its points in the column's shape, drawn open (a point under another still shows).
 * Shape goes on the points alone: a line has no shape channel (Vega-Lite would warn).
 *
 * @param columns the columns the plot draws.
 * @param encoding the position channels (and `detail`), shared by lines and points.
 */
export function variantLayers(
  columns: readonly string[],
  encoding: Record<string, unknown>,
  points: boolean,
): object[] {
  const { color, strokeDash, shape } = variantEncoding(columns);
  const line = {
    mark: { type: 'line', strokeWidth: 1.6 },
    encoding: { ...encoding, color, strokeDash },
  };
  const point = {
    mark: { type: 'point', filled: false, size: 36, strokeWidth: 1.4, opacity: 1 },
    encoding: { ...encoding, color, shape },
  };
  return points ? [line, point] : [line];
}

/**
 * Splits each layer in two, the headline columns ({@link isHeadline}, solid lines) before all the
 * others, so that the others' dashed lines are drawn over them: where two curves coincide the
 * solid one shows through the gaps of the dashes instead of hiding them. Layers are returned
 * unchanged when no headline column is present.
 *
 * @param layers Vega-Lite unit layers (without transforms of their own) whose data has a `column` field.
 * @param columns the columns the plot draws.
 */
export function headlineUnderneath<L extends object>(
  layers: readonly L[],
  columns: readonly string[],
): L[] {
  const headline = [...new Set(columns.filter(isHeadline))];
  if (headline.length === 0) return [...layers];
  const only = { field: 'column', oneOf: headline };
  return [
    ...layers.map((l): L => ({ ...l, transform: [{ filter: only }] })),
    ...layers.map((l): L => ({ ...l, transform: [{ filter: { not: only } }] })),
  ];
}
