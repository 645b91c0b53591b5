import { describe, expect, it } from 'vitest';
import { ACCURACY_RANGE, lengthSpec } from './lengthPlot.js';

type Row = Record<string, number | string>;
/** The plotted rows of a spec: its panels (under the legend) hold them in `data.values`. */
const rows = (spec: object): Row[] =>
  (spec as { vconcat: Array<{ data?: { values: Row[] } }> }).vconcat.find(
    (v) => v.data?.values[0]?.mean !== undefined,
  )!.data!.values;

describe('lengthSpec', () => {
  const points = [
    { group: 'T=64', column: 'sigmoid', T: 8, values: [1, 0.9996, 0.4393] },
    { group: 'T=64', column: 'softmax', T: 8, values: [0.999, 1, 1] },
  ];

  it("should cut a bounded metric's error bars to its range and say so on the axis", () => {
    const spec = lengthSpec(points, 'query accuracy', 'key–value pairs', ACCURACY_RANGE);
    const sigmoid = rows(spec).find((r) => r.column === 'sigmoid')!;
    // mean 0.813, std 0.323: the bar would end at 1.136.
    expect(sigmoid.mean).toBeCloseTo(0.81297, 5);
    expect(sigmoid.hi).toBe(1);
    expect(sigmoid.lo).toBeCloseTo(0.81297 - 0.32364, 4);
    for (const r of rows(spec)) expect(r.hi as number).toBeLessThanOrEqual(1);
    expect(JSON.stringify(spec)).toContain('(mean ± std over seeds, within 0–1)');
  });

  it('should leave an unbounded metric’s bars alone', () => {
    const spec = lengthSpec(points, 'perplexity', 'context length T');
    expect(rows(spec).find((r) => r.column === 'sigmoid')!.hi).toBeCloseTo(0.81297 + 0.32364, 4);
    expect(JSON.stringify(spec)).toContain('"(mean ± std over seeds)"');
  });
});
