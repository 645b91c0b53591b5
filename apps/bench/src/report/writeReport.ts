import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../results/atomicWrite.js';
import {
  curvesSpec,
  fidelitySpec,
  metricVsLengthSpec,
  renderSvg,
  trainLossSpec,
} from './plots/plots.js';
import type { FidelityPoint } from './plots/plots.js';
import { attentionMapSpec } from './plots/attentionMapPlot.js';
import { columnOf, orderColumns, softmaxColumn } from './columns.js';
import { convergenceSpec, convergenceTable } from './convergenceReport.js';
import { couplingDistanceSpec } from './plots/couplingDistancePlot.js';
import { couplingHeatmapSpec } from './plots/couplingHeatmapPlot.js';
import { approximationCostTable } from './approximationCost.js';
import { couplingBandsTable } from './couplingBands.js';
import { couplingProfileSpec } from './plots/couplingProfilePlot.js';
import { gptCurvesSpec, gptTable } from './gptSummary.js';
import { summarize } from './summary.js';
import type { Summary } from './summary.js';
import { htmlTable, mdTable, summaryHtml, summaryMarkdown } from './summaryTable.js';
import type { Table } from './summaryTable.js';
import { timeTable } from './timeTable.js';
import { trendTable } from './trendTable.js';
import { extrapolationSpec, extrapolationTable } from './extrapolationReport.js';
import { writeRunsJsonl } from '../results/runRows.js';
import type { ExtrapolationResult } from './extrapolationReport.js';
import type { Experiment, RunRecord } from '../types.js';

/**
 * The version of the report renderer, written into every report.html as
 * `<meta name="boltzmann-report-renderer" content="…">`. Raise it whenever the summary, tables or
 * plots change, then regenerate the committed reports (`bench report --results <folder>`); a test
 * fails while a committed report is older.
 */
export const REPORT_RENDERER_VERSION = 1;

/** What {@link writeReport} produced. */
export interface ReportFiles {
  readonly summaries: readonly Summary[];
  readonly markdownPath: string;
  readonly htmlPath: string;
  readonly svgPaths: readonly string[];
  /** `runs.jsonl`: one flat row per run (see runRows.ts). */
  readonly runsPath: string;
}

function columnOrder(
  records: readonly RunRecord[],
  experiment: Experiment,
): { columns: string[]; baseline: string } {
  const present = [...new Set(records.map(columnOf))];
  if (experiment === 'dqa') {
    const dqa = present
      .filter((c) => c !== 'exact')
      .sort((a, b) =>
        a === 'dqa-dist' ? -1 : b === 'dqa-dist' ? 1 : a.localeCompare(b, 'en', { numeric: true }),
      );
    return { columns: ['exact', ...dqa], baseline: 'exact' };
  }
  return { columns: orderColumns(present), baseline: softmaxColumn(present) };
}

/** The settings shared by (or differing across) the runs, for the report's header. */
export function settingsLine(records: readonly RunRecord[]): string {
  const values = (f: (r: RunRecord) => unknown): string => {
    const set = [
      ...new Set(
        records.map((r) => (typeof f(r) === 'object' ? JSON.stringify(f(r)) : String(f(r)))),
      ),
    ];
    return set.length === 0 ? '—' : set.join(' / ');
  };
  const c = (r: RunRecord) => r.config;
  return [
    `steps ${values((r) => c(r).steps)}`,
    `batch ${values((r) => c(r).batchSize)}`,
    `lr ${values((r) => c(r).lr)} (cosine to ×${values((r) => c(r).minLrFraction)})`,
    `weight decay ${values((r) => c(r).weightDecay)}`,
    `clip ${values((r) => c(r).clipNorm)}`,
    `β ${values((r) => c(r).beta)}`,
    `J init σ ${values((r) => c(r).jInit)}`,
    `samplers ${values((r) => (c(r).sampler === 'none' ? 'none' : `${c(r).sampler} ${JSON.stringify(c(r).samplerOptions)}`))}`,
    `git ${values((r) => r.gitCommit?.slice(0, 12) ?? 'unknown')}`,
  ].join('; ');
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Prepares an SVG document for inlining in HTML: strips the XML prolog and prefixes its ids
 * (Vega names legend gradients `gradient_0` in every figure; one HTML document needs unique ids).
 */
function inlineSvg(svg: string, prefix: string): string {
  return svg
    .replace(/^<\?xml[^>]*>\s*/, '')
    .replace(/\bid="([^"]+)"/g, `id="${prefix}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}-$1"`);
}

/**
 * Writes the summary (Markdown + JSON), the SVG plots, a self-contained `report.html` and
 * `runs.jsonl` (one flat row per run) for the finished runs of one experiment, all atomically,
 * under `dir`.
 *
 * @param dir the experiment's results directory.
 * @param experiment which grid the records belong to (picks columns and baseline).
 * @param records finished runs (any order).
 * @param extra DQA fidelity sweep rows to plot, and `bench extrapolate` results to table, when present.
 * @returns the summaries and file paths.
 * @example
 * await writeReport('results/shakespeare', 'shakespeare', records);
 */
export async function writeReport(
  dir: string,
  experiment: Experiment,
  records: readonly RunRecord[],
  extra: {
    fidelity?: readonly FidelityPoint[];
    extrapolation?: readonly ExtrapolationResult[];
  } = {},
): Promise<ReportFiles> {
  const byDataset = new Map<string, RunRecord[]>();
  for (const r of records) {
    const list = byDataset.get(r.config.dataset) ?? [];
    list.push(r);
    byDataset.set(r.config.dataset, list);
  }
  const summaries: Summary[] = [];
  const settings = settingsLine(records);
  const md: string[] = [
    `# Boltzmann attention bench: ${experiment}`,
    '',
    `${records.length} finished runs. Settings: ${settings}.`,
    '',
  ];
  const html: string[] = [];
  const svgPaths: string[] = [];
  const plot = async (
    name: string,
    title: string,
    spec: Parameters<typeof renderSvg>[0] | null,
  ): Promise<void> => {
    if (!spec) return;
    const svg = await renderSvg(spec);
    const path = join(dir, 'plots', `${name}.svg`);
    writeFileAtomic(path, svg);
    svgPaths.push(path);
    md.push(`![${title}](plots/${name}.svg)`, '');
    html.push(`<h3>${esc(title)}</h3>`, `<figure>${inlineSvg(svg, name)}</figure>`);
  };
  /** A titled table, with an optional note, in both documents; nothing when `table` is null. */
  const tableSection = (title: string, table: Table | null, note?: string): void => {
    if (!table) return;
    md.push(`### ${title}`, '', ...(note ? [note, ''] : []), mdTable(table), '');
    html.push(`<h2>${esc(title)}</h2>`, ...(note ? [`<p>${esc(note)}</p>`] : []), htmlTable(table));
  };
  for (const [dataset, list] of [...byDataset.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const { columns, baseline } = columnOrder(list, experiment);
    const summary = summarize(list, columns, baseline);
    summaries.push(summary);
    md.push(`## ${dataset}`, '');
    html.push(`<section><h1>${esc(dataset)}</h1>`);
    const gpt = list.filter((r) => r.gptEval !== undefined);
    if (gpt.length > 0) {
      tableSection('Loss in nats per character (nanoGPT protocol)', gptTable(gpt));
      await plot(
        `${dataset}-gpt-loss`,
        `${dataset}: train and val loss (20 random batches of each split per evaluation)`,
        gptCurvesSpec(gpt),
      );
    }
    md.push(summaryMarkdown(summary));
    html.push(summaryHtml(summary));
    tableSection(
      `Does the difference to ${baseline} grow with T?`,
      trendTable(list, columns, baseline),
      `Per seed, the least-squares slope of the paired difference to ${baseline} (perplexity: relative, in %; accuracy: in points) against log₂ T, over the lengths where both ran; mean ± std over seeds, and a t-test of the slopes against 0.`,
    );
    tableSection(
      'The approximations against exact Boltzmann attention',
      approximationCostTable(list, columns),
      'Per-seed paired differences to exact Boltzmann attention (the exact sampler), where it ran.',
    );
    tableSection(
      'Time per training step',
      gpt.length > 0 ? null : timeTable(list, columns, baseline),
      'Milliseconds per step: wall time of each run over its steps (evaluations included), mean ± std over seeds, then · the ratio to the baseline. Runs of a grid share the machine with its other workers.',
    );
    await plot(
      `${dataset}-metric-vs-length`,
      `${dataset}: ${summary.metricName} against context length`,
      metricVsLengthSpec(list),
    );
    await plot(
      `${dataset}-curves`,
      `${dataset}: ${summary.metricName} during training`,
      curvesSpec(list),
    );
    await plot(`${dataset}-train-loss`, `${dataset}: training loss`, trainLossSpec(list));
    await plot(
      `${dataset}-couplings`,
      `${dataset}: learned couplings J (boltzmann, mean over seeds)`,
      couplingHeatmapSpec(list),
    );
    await plot(
      `${dataset}-coupling-distance`,
      `${dataset}: mean J against distance |j − l|`,
      couplingDistanceSpec(list),
    );
    await plot(
      `${dataset}-coupling-profile`,
      `${dataset}: mean learned J by distance, every layer and head (mean over seeds)`,
      couplingProfileSpec(list),
    );
    tableSection(
      'Learned J by distance band',
      couplingBandsTable(list),
      "Mean J over the distances of each band, mean ± std over heads and seeds; the last column counts the (seed, head) pairs with the paper's pattern.",
    );
    const convergence = convergenceTable(list);
    tableSection('Convergence of the iterative samplers during training', convergence);
    if (convergence) {
      await plot(
        `${dataset}-convergence`,
        `${dataset}: fixed-point convergence during training`,
        convergenceSpec(list),
      );
    }
    await plot(
      `${dataset}-attention-maps`,
      `${dataset}: attention weights of one fixed sequence (layer 0, head 0; mean over seeds)`,
      attentionMapSpec(list),
    );
    html.push('</section>');
  }
  const extrapolation = extrapolationTable(extra.extrapolation ?? []);
  if (extrapolation) {
    md.push('## Extrapolation: saved models evaluated past their training length', '');
    html.push('<section><h1>Extrapolation: saved models evaluated past their training length</h1>');
    tableSection(
      'Validation perplexity at each length',
      extrapolation,
      'Each model is evaluated on the validation windows a run at that length uses; the difference is paired with softmax per seed.',
    );
    await plot(
      'extrapolation',
      'perplexity against the evaluated length (mean ± std over seeds)',
      extrapolationSpec(extra.extrapolation ?? []),
    );
    html.push('</section>');
  }
  if (extra.fidelity && extra.fidelity.length > 0) {
    md.push('## DQA fidelity sweep', '');
    html.push('<section><h1>DQA fidelity sweep</h1>');
    await plot(
      'dqa-fidelity',
      'DQA output against exact Boltzmann: KL and magnetization error',
      fidelitySpec(extra.fidelity),
    );
    html.push('</section>');
  }
  const markdownPath = join(dir, 'summary.md');
  writeFileAtomic(markdownPath, `${md.join('\n')}\n`);
  writeJsonAtomic(join(dir, 'summary.json'), {
    experiment,
    summaries,
    fidelity: extra.fidelity ?? null,
    extrapolation: extra.extrapolation ?? null,
  });
  const htmlPath = join(dir, 'report.html');
  writeFileAtomic(
    htmlPath,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="boltzmann-report-renderer" content="${REPORT_RENDERER_VERSION}"><title>Boltzmann attention bench: ${esc(experiment)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: right; }
th { background: #f3f3f3; }
figure { margin: 1rem 0; overflow-x: auto; }
</style></head>
<body>
<h1>Boltzmann attention bench: ${esc(experiment)}</h1>
<p>${records.length} finished runs. Generated ${esc(new Date().toISOString())}.</p>
<p>Settings: ${esc(settings)}.</p>
${html.join('\n')}
</body></html>
`,
  );
  const runsPath = writeRunsJsonl(dir, records);
  return { summaries, markdownPath, htmlPath, svgPaths, runsPath };
}
