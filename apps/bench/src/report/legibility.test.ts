import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { couplingBandsTable } from './couplingBands.js';
import { gptTable } from './gptSummary.js';
import { PAGE_WIDTH, panelLayout } from './plots/layout.js';
import { metricVsLengthSpec } from './plots/lengthPlot.js';
import { curvesSpec, renderSvg, trainLossSpec } from './plots/plots.js';
import type { variantLegend } from './plots/variantLegend.js';
import { vegaLogger } from './plots/vegaLog.js';
import { ONE_SEED_BANNER, seedBanner } from './seedBanner.js';
import { writeReport } from './writeReport.js';
import type { RunRecord } from '../recordTypes.js';

// Issue 43 point 9 (a legible report) and point 8's Vega part.

const VARIANTS = ['softmax', 'boltzmann', 'sigmoid', 'coupling'];

const grid = (lengths: string, seeds: string, metric = () => 5): RunRecord[] =>
  syntheticRecords(['shakespeare', '--lengths', lengths, '--seeds', seeds], metric);

/** A record with a long evaluation and loss curve (more points than get markers). */
const longCurves = (r: RunRecord): RunRecord => {
  const curve = Array.from({ length: 40 }, (_, k) => ({ step: 10 * (k + 1), value: 5 - k / 100 }));
  return { ...r, evalMetric: curve, trainLoss: curve };
};

type Unit = { mark: { type: string }; encoding: Record<string, { scale?: { range: unknown[] } }> };

describe('line styles', () => {
  it('gives each variant its own dash, in the spec and in the rendered lines, and a legend showing dash and shape', async () => {
    const spec = curvesSpec(grid('4,8', '0')) as unknown as {
      vconcat: [ReturnType<typeof variantLegend>, { spec: { layer: Unit[] } }];
    };
    const line = spec.vconcat[1].spec.layer.find((l) => l.mark.type === 'line')!;
    const dashes = line.encoding.strokeDash!.scale!.range.map((d) => JSON.stringify(d));
    expect(dashes).toHaveLength(4);
    expect(new Set(dashes).size).toBe(4);
    // Lines carry dashes, points carry shapes: no shape on a line (Vega-Lite drops it, warning).
    expect(line.encoding.shape).toBeUndefined();
    const legend = spec.vconcat[0];
    expect(legend.layer.map((l) => l.mark.type)).toEqual(['rule', 'point', 'text']);
    expect(Object.keys(legend.layer[0]!.encoding)).toContain('strokeDash');
    expect(Object.keys(legend.layer[1]!.encoding)).toContain('shape');
    expect(legend.data.values.map((v) => v.column)).toEqual(VARIANTS);
    const svg = await renderSvg(spec as never);
    const drawn = new Set(
      [...svg.matchAll(/aria-roledescription="line mark"[^>]*?stroke-dasharray="([^"]+)"/g)].map(
        (m) => m[1],
      ),
    );
    // softmax, sigmoid and coupling dashed (boltzmann is the solid line, no dasharray)
    expect(drawn.size).toBe(3);
    for (const v of VARIANTS) expect(svg).toContain(`>${v}</text>`);
  });
});

describe('panel widths', () => {
  it('computes panel widths from the panels in a row, so a row fills the page', () => {
    const shape = { maxColumns: 3, aspect: 0.6 };
    const one = panelLayout(1, shape);
    const three = panelLayout(3, shape);
    const six = panelLayout(6, shape);
    expect(one.columns).toBe(1);
    expect(three.columns).toBe(3);
    expect(six).toEqual(three); // wraps to 3 in a row
    expect(one.width).toBeGreaterThan(2.9 * three.width);
    expect(three.width * 3).toBeGreaterThan(PAGE_WIDTH * 0.75);
    expect(panelLayout(2, { maxColumns: 2, aspect: 1, maxWidth: 300 }).width).toBe(300);
    expect(panelLayout(1, { maxColumns: 1, aspect: 1, maxHeight: 200 }).height).toBe(200);
  });

  it('renders the curves of three lengths about a page wide, and of one length no narrower', async () => {
    const width = async (records: RunRecord[]) =>
      Number(/^<svg[^>]* width="(\d+)"/.exec(await renderSvg(curvesSpec(records)))![1]);
    const three = await width(grid('4,8,12', '0'));
    expect(three).toBeGreaterThan(PAGE_WIDTH * 0.9);
    expect(three).toBeLessThanOrEqual(PAGE_WIDTH + 40);
    expect(await width(grid('4', '0'))).toBeGreaterThan(PAGE_WIDTH * 0.9);
  });
});

describe('one seed', () => {
  it('prints (n = 1), never ± 0.000, in the coupling-band and gpt tables', () => {
    const one = grid('16', '0');
    const profiled = one.map((r) => ({
      ...r,
      couplingProfile: [Array.from({ length: 15 }, (_, k) => (k < 4 ? 0.2 : -0.1))],
    }));
    const bands = couplingBandsTable(profiled)!;
    expect(bands.body[0]!.slice(3, 5)).toEqual(['+0.200 (n = 1)', '−0.100 (n = 1)']);
    const gpt = gptTable(one);
    expect(gpt.body[0]![3]).toMatch(/^\d+\.\d{3} \(n = 1\)$/);
    for (const table of [bands, gpt]) expect(JSON.stringify(table)).not.toContain('±');
  });

  it('puts the banner at the top of the report iff no cell has two seeds', async () => {
    expect(seedBanner(grid('4,8', '0'))).toBe(ONE_SEED_BANNER);
    expect(seedBanner(grid('4,8', '0,1'))).toBeNull();
    expect(seedBanner([])).toBeNull();
    for (const [seeds, banner] of [
      ['0', true],
      ['0,1', false],
    ] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-legible-'));
      const files = await writeReport(dir, 'shakespeare', grid('4,8', seeds));
      const html = readFileSync(files.htmlPath, 'utf8');
      const md = readFileSync(files.markdownPath, 'utf8');
      expect(html.includes('class="banner"')).toBe(banner);
      expect(md.includes(ONE_SEED_BANNER)).toBe(banner);
      if (banner) {
        // Above the settings, and every table cell of a mean says (n = 1).
        expect(html.indexOf('class="banner"')).toBeLessThan(html.indexOf('Settings:'));
        expect(md).toContain('| 4 | 5.000 (n = 1) | 5.000 (n = 1) |');
        expect(md).not.toMatch(/± 0\.0+\b/);
      }
    }
  });
});

describe('Vega warnings', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('raises none for one-length grids with long curves, and prints nothing by default', async () => {
    const records = grid('8', '0').map(longCurves);
    const seen: string[] = [];
    const logger = vegaLogger((line) => seen.push(line));
    for (const spec of [curvesSpec(records), trainLossSpec(records), metricVsLengthSpec(records)])
      await renderSvg(spec, logger);
    expect(seen).toEqual([]);
    // The warning the curves raised before (shape on a line without points) reaches the logger,
    // and not the console.
    const stderr = vi.spyOn(process.stderr, 'write');
    const warn = vi.spyOn(console, 'warn');
    const bad = {
      data: { values: [{ x: 1, y: 2, c: 'a' }] },
      mark: { type: 'line', point: false },
      encoding: {
        x: { field: 'x', type: 'quantitative' },
        y: { field: 'y', type: 'quantitative' },
        shape: { field: 'c', type: 'nominal' },
      },
    } as const;
    await renderSvg(bad, logger);
    expect(seen).toEqual(['WARN shape dropped as it is incompatible with "line".']);
    await renderSvg(bad);
    expect(stderr).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
