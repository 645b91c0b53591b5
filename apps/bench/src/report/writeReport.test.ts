import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { experimentReport } from '../experiments/registry.js';
import { syntheticRecords } from '../testing/fixtures.js';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { metricVsLengthSpec } from './plots/lengthPlot.js';
import { curvesSpec, fidelitySpec, numericOrder, renderSvg, trainLossSpec } from './plots/plots.js';
import { attentionMapSpec } from './plots/attentionMapPlot.js';
import { couplingDistanceSpec } from './plots/couplingDistancePlot.js';
import { couplingHeatmapSpec } from './plots/couplingHeatmapPlot.js';
import { REPORT_RENDERER_VERSION, settingsLine, writeReport } from './writeReport.js';

/** Checks that every tag is closed in order (a small well-formedness check of the SVG XML). */
function assertWellFormedSvg(svg: string): void {
  expect(svg.startsWith('<svg')).toBe(true);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const [, close, name, selfClose] = m;
    if (selfClose) continue;
    if (close) expect(stack.pop()).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
}

const shakespeare = syntheticRecords(
  ['shakespeare', '--lengths', '4,8', '--seeds', '0,1'],
  (c) => ({ softmax: 5, boltzmann: 4.9, sigmoid: 5.1, coupling: 8 })[c.variant] + c.seed * 0.1,
);

describe('plots', () => {
  it('renders metric-vs-length with one series per variant and error bars', async () => {
    const svg = await renderSvg(metricVsLengthSpec(shakespeare));
    assertWellFormedSvg(svg);
    for (const v of ['softmax', 'boltzmann', 'sigmoid', 'coupling'])
      expect(svg).toContain(`>${v}<`);
    expect(svg).toContain('context length T');
  });

  it('renders the learned J heatmap and the J-against-distance curve for boltzmann runs only', async () => {
    const heat = couplingHeatmapSpec(shakespeare)!;
    const values = (heat.data as { values: { panel: string; j: number; l: number; J: number }[] })
      .values;
    // T=4 has 6 and T=8 has 28 upper-triangle cells; mean over the 2 seeds
    expect(values).toHaveLength(6 + 28);
    expect(values.every((v) => v.panel.startsWith('FFN on, d=64, T=') && v.l > v.j)).toBe(true);
    const cell = values.find((v) => v.panel.endsWith('T=4') && v.j === 0 && v.l === 1)!;
    expect(cell.J).toBeCloseTo(0.1 + 0.0005, 12);
    assertWellFormedSvg(await renderSvg(heat));
    // Past HEATMAP_CELLS keys the map is pooled: T = 80 becomes blocks of 3 (27 per side).
    const long = syntheticRecords(
      ['shakespeare', '--variants', 'boltzmann', '--lengths', '80', '--seeds', '0'],
      () => 5,
    );
    const pooled = (
      couplingHeatmapSpec(long)!.data as {
        values: { panel: string; j: number; l: number; J: number }[];
      }
    ).values;
    expect(pooled).toHaveLength((27 * 28) / 2);
    expect(pooled[0]!.panel).toMatch(/T=80 \(3 × 3 blocks\)$/);
    // Block (0, 0) holds the pairs (0,1), (0,2), (1,2): J = 0.1, 0.2, 0.1 in the fixture.
    expect(pooled.find((v) => v.j === 0 && v.l === 0)!.J).toBeCloseTo(0.4 / 3, 12);
    // Block (0, 3): keys 0–2 against 9–11, all past distance 3, so J = −0.05.
    expect(pooled.find((v) => v.j === 0 && v.l === 9)!.J).toBeCloseTo(-0.05, 12);
    // The last block is keys 78–79 alone: one pair at distance 1.
    expect(pooled.find((v) => v.j === 78 && v.l === 78)!.J).toBeCloseTo(0.1, 12);
    const dist = couplingDistanceSpec(shakespeare)!;
    assertWellFormedSvg(await renderSvg(dist));
    expect(
      couplingHeatmapSpec(shakespeare.filter((r) => r.config.variant === 'softmax')),
    ).toBeNull();
  });

  it('orders panels numerically, rounds axis labels, marks points (a one-evaluation run still shows) and plots the training loss', async () => {
    expect(
      numericOrder([
        'FFN on, d=64, T=12',
        'FFN on, d=64, T=4',
        'FFN on, d=64, T=8',
        'FFN on, d=64, T=4',
      ]),
    ).toEqual(['FFN on, d=64, T=4', 'FFN on, d=64, T=8', 'FFN on, d=64, T=12']);
    const records = syntheticRecords(
      ['shakespeare', '--lengths', '4,8,12', '--seeds', '0'],
      () => 6.123456789,
    );
    // The chart under its variant legend (variantLegend.ts): lines, then points on them.
    const curves = (curvesSpec(records) as unknown as { vconcat: unknown[] }).vconcat[1] as {
      facet: { sort: string[] };
      spec: { layer: { mark: { type: string } }[] };
    };
    expect(curves.facet.sort).toEqual([
      'FFN on, d=64, T=4',
      'FFN on, d=64, T=8',
      'FFN on, d=64, T=12',
    ]);
    expect(curves.spec.layer.map((l) => l.mark.type)).toEqual(['line', 'point', 'line', 'point']);
    const svg = await renderSvg(
      curvesSpec(records.map((r) => ({ ...r, evalMetric: [{ step: 300, value: 6.123456789 }] }))),
    );
    expect(svg).toContain('<path'); // the single point of each run is drawn
    expect(svg).not.toMatch(/>6\.12345/); // axis labels are rounded
    const train = await renderSvg(trainLossSpec(records));
    assertWellFormedSvg(train);
    expect(train).toContain('train loss');
  });

  it('renders the attention maps, one row per cell and one column per variant (mean over seeds)', async () => {
    expect(attentionMapSpec(shakespeare)).toBeNull(); // records without maps
    const withMaps = shakespeare.map((r) => {
      const T = r.config.length;
      const weights = Array.from({ length: T * T }, (_, k) =>
        k % T <= Math.floor(k / T) ? 1 / (Math.floor(k / T) + 1) : 0,
      );
      return { ...r, attentionMap: { size: T, weights } };
    });
    const spec = attentionMapSpec(withMaps)!;
    const values = (spec.data as { values: { row: string; column: string; w: number }[] }).values;
    // T = 4 and T = 8, 4 variants, the causal triangle only.
    expect(values).toHaveLength(4 * (10 + 36));
    expect(values.find((v) => v.row.endsWith('T=4') && v.column === 'boltzmann')!.w).toBe(1);
    assertWellFormedSvg(await renderSvg(spec));
  });

  it('renders the DQA fidelity sweep', async () => {
    const rows = [1, 2].flatMap((tau) =>
      [4, 8].map((steps) => ({
        tau,
        steps,
        kl: 1 / (tau * steps),
        magnetizationError: 0.5 / steps,
      })),
    );
    assertWellFormedSvg(await renderSvg(fidelitySpec(rows)));
  });
});

describe('writeReport', () => {
  it('writes summary.md, summary.json, SVG plots and a self-contained report.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    const files = await writeReport(dir, 'shakespeare', shakespeare);
    const md = readFileSync(files.markdownPath, 'utf8');
    expect(md).toContain('| T | softmax | boltzmann | sigmoid | coupling |');
    expect(md).toContain('### Time per training step');
    expect(md).toContain('### Does the difference to softmax grow with T?');
    expect(md).toMatch(/\| boltzmann \|/);
    expect(md).toMatch(/ · \d+\.\d\d× \|/); // the ratio to softmax inside the time cell
    expect(md).toContain(
      'Settings: steps 300; batch 64; lr 0.003 (cosine to ×0.1); weight decay 0.01; clip 1; β 1; J init σ 0.02; samplers: softmax, sigmoid on no sampler, boltzmann, coupling on exact; git unknown.',
    );
    expect(files.svgPaths.map((p) => p.slice(dir.length + 1)).sort()).toEqual([
      'plots/shakespeare-coupling-distance.svg',
      'plots/shakespeare-couplings.svg',
      'plots/shakespeare-curves.svg',
      'plots/shakespeare-metric-vs-length.svg',
      'plots/shakespeare-train-loss.svg',
    ]);
    const html = readFileSync(files.htmlPath, 'utf8');
    expect(html).toContain('<table>');
    expect(html).toContain('<th>boltzmann</th>');
    expect(html).toContain('<h2>Time per training step</h2>');
    expect(html.match(/<svg/g)).toHaveLength(5);
    expect(html).not.toMatch(/<script|src="http|href="http/);
    for (const p of files.svgPaths) assertWellFormedSvg(readFileSync(p, 'utf8'));
    const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(json.summaries[0].rows).toHaveLength(2);
    // The renderer's version, and one flat row per run beside the summary.
    expect(html).toContain(
      `<meta name="boltzmann-report-renderer" content="${REPORT_RENDERER_VERSION}">`,
    );
    const rows = readFileSync(join(dir, 'runs.jsonl'), 'utf8').trimEnd().split('\n');
    expect(files.runsPath).toBe(join(dir, 'runs.jsonl'));
    expect(rows.map((l) => JSON.parse(l).id)).toEqual(shakespeare.map((r) => r.id).sort());
  });

  it('writes one section per dataset for DQA, with exact as the baseline, plus the fidelity plot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
    const dqa = syntheticRecords(
      ['dqa', '--lengths', '4', '--seeds', '0,1,2'],
      (c) => (c.dataset === 'shakespeare' ? 6 : 0.8) + (c.column === 'exact' ? 0 : 0.01),
    );
    const files = await writeReport(dir, 'dqa', dqa, {
      sections: await experimentReport('dqa'),
      fidelity: [
        { tau: 1, steps: 4, kl: 0.1, magnetizationError: 0.2 },
        { tau: 1, steps: 8, kl: 0.05, magnetizationError: 0.1 },
      ],
    });
    expect(files.summaries.map((s) => s.baseline)).toEqual(['exact', 'exact']);
    expect(files.summaries[0]!.columns).toEqual(['exact', 'dqa-dist', 'dqa-256shots']);
    const md = readFileSync(files.markdownPath, 'utf8');
    expect(md).toContain('## brackets');
    expect(md).toContain('## shakespeare');
    expect(md).toMatch(/\| dqa-256shots \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \|/);
    expect(md).toContain('| variant − exact |');
    expect(files.svgPaths.some((p) => p.endsWith('dqa-fidelity.svg'))).toBe(true);
    // Two heatmaps with legend gradients: ids stay unique once inlined in one HTML document.
    const ids = [...readFileSync(files.htmlPath, 'utf8').matchAll(/\bid="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(ids.length);
    const html = readFileSync(files.htmlPath, 'utf8');
    for (const m of html.matchAll(/url\(#([^)]+)\)/g)) expect(ids).toContain(m[1]);
  });
});

describe('settingsLine', () => {
  it('names the engine the runs trained on when their records say, and nothing for older records', () => {
    const records = shakespeare.slice(0, 2);
    expect(settingsLine(records)).not.toContain('engine');
    const engine = {
      name: 'wasm' as const,
      backend: 'native' as const,
      isa: 'avx512',
      lanes: 16,
      threads: 1,
      line: 'engine: native avx512 (16 lanes), 1 thread',
    };
    const withEngine = records.map((r) => ({ ...r, engine }));
    expect(settingsLine(withEngine)).toContain('engine native avx512 (16 lanes), 1 thread; git');
  });
});
