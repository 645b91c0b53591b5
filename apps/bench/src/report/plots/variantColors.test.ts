import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../testing/fixtures.js';
import { metricVsLengthSpec } from './lengthPlot.js';
import { renderSvg } from './plots.js';
import { colourScale, headlineUnderneath, variantScales } from './variantColors.js';

describe('colourScale', () => {
  it('should give each kind of column the same colour in any plot, in variant order', () => {
    const a = colourScale(['sigmoid', 'boltzmann (tap)', 'softmax', 'softmax']);
    const b = colourScale(['boltzmann (transfer-matrix, banded:8)', 'boltzmann (tap)', 'softmax']);
    expect(a.domain).toEqual(['softmax', 'boltzmann (tap)', 'sigmoid']);
    const colour = (s: { domain: string[]; range: string[] }, c: string) =>
      s.range[s.domain.indexOf(c)];
    expect(colour(a, 'boltzmann (tap)')).toBe(colour(b, 'boltzmann (tap)'));
    expect(colour(a, 'softmax')).toBe(colour(b, 'softmax'));
  });

  it('should keep colours distinct within a plot, for two columns of a kind and for unknown ones', () => {
    const s = colourScale([
      'boltzmann (transfer-matrix, banded:4)',
      'boltzmann (transfer-matrix, banded:8)',
      'dqa-dist',
      'dqa-256shots',
    ]);
    expect(new Set(s.range).size).toBe(4);
  });
});

describe('variantScales', () => {
  it('should give each variant of a plot its own dash and point shape as well as colour', () => {
    const s = variantScales(['softmax', 'boltzmann', 'sigmoid', 'coupling', 'boltzmann (tap)']);
    for (const scale of [s.colour, s.dash, s.shape]) {
      expect(scale.domain).toEqual(s.colour.domain);
      expect(new Set(scale.range.map((v) => JSON.stringify(v))).size).toBe(5);
    }
    const look = (c: string) => s.dash.range[s.dash.domain.indexOf(c)];
    expect(look('boltzmann')).toEqual([]); // the headline is the solid line
    // Unknown and repeated kinds still get distinct dashes and shapes.
    const dqa = variantScales(['exact', 'dqa-dist', 'dqa-256shots', 'dqa-1024shots']);
    expect(new Set(dqa.dash.range.map((d) => JSON.stringify(d))).size).toBe(4);
    expect(new Set(dqa.shape.range).size).toBe(4);
  });
});

describe('headlineUnderneath', () => {
  it('should draw boltzmann (the solid line) before every other variant, in the rendered SVG too', async () => {
    const layers = headlineUnderneath([{ mark: 'line' }], ['softmax', 'boltzmann', 'sigmoid']);
    expect(layers.map((l) => (l as { transform?: unknown }).transform)).toEqual([
      [{ filter: { field: 'column', oneOf: ['boltzmann'] } }],
      [{ filter: { not: { field: 'column', oneOf: ['boltzmann'] } } }],
    ]);
    expect(headlineUnderneath([{ mark: 'line' }], ['softmax', 'sigmoid'])).toEqual([
      { mark: 'line' },
    ]);
    // The quick start's picture: boltzmann and sigmoid on the same values, boltzmann listed first.
    const records = syntheticRecords(
      [
        'shakespeare',
        '--variants',
        'boltzmann,sigmoid,softmax',
        '--lengths',
        '4,8',
        '--seeds',
        '0',
      ],
      (c) => (c.variant === 'softmax' ? 6 : 5),
    );
    const svg = await renderSvg(metricVsLengthSpec(records));
    // The lines in drawing order (later is on top), named by their aria labels.
    const lines = [
      ...svg.matchAll(/variant: ([^"]+)" role="graphics-symbol" aria-roledescription="line mark"/g),
    ].map((m) => m[1]);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('boltzmann'); // under sigmoid's dots, which leave it showing
    expect(svg).toContain('stroke-dasharray="2,2"'); // sigmoid dotted, drawn over it
  });
});
