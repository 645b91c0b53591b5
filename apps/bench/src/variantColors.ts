import { orderColumns } from './columns.js';

/** The colour a kind of column keeps in every plot of every report (first match wins). */
const COLOURS: readonly [RegExp, string][] = [
  [/^softmax$/, '#4d4d4d'],
  [/^softmax \(/, '#9e9e9e'],
  [/^sigmoid/, '#2ca02c'],
  [/^coupling/, '#9467bd'],
  [/^boltzmann$/, '#1f77b4'],
  [/^boltzmann \(transfer-matrix/, '#d62728'],
  [/^boltzmann \(tap, relative/, '#8c564b'],
  [/^boltzmann \(tap, banded/, '#e377c2'],
  [/^boltzmann \(tap/, '#ff7f0e'],
  [/^boltzmann \(mean-field/, '#17becf'],
];

/** For anything else (DQA columns, plugins), and for a second column of the same kind. */
const SPARE = ['#bcbd22', '#17becf', '#7f7f7f', '#aec7e8', '#ffbb78', '#98df8a', '#c5b0d5'];

/**
 * A Vega-Lite colour scale giving each column its fixed colour, so that tap is orange and the
 * transfer matrix red in every plot, in variant order (the legend's order).
 *
 * @param columns the columns the plot draws (any order, repeats allowed).
 */
export function colourScale(columns: readonly string[]): { domain: string[]; range: string[] } {
  const domain = orderColumns(columns);
  const used = new Set<string>();
  let spare = 0;
  const range = domain.map((c) => {
    let colour = COLOURS.find(([pattern]) => pattern.test(c))?.[1];
    while (colour === undefined || used.has(colour)) colour = SPARE[spare++ % SPARE.length]!;
    used.add(colour);
    return colour;
  });
  return { domain, range };
}
