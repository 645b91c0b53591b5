import { samplerText } from '../samplerText.js';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../results/atomicWrite.js';
import { writeRunsJsonl } from '../results/runRows.js';
import type { Experiment } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import { columnOf, orderColumns, softmaxColumn } from './columns.js';
import { datasetSections } from './datasetSections.js';
import { extrapolationSpec, extrapolationTable } from './extrapolationReport.js';
import type { ExtrapolationResult } from './extrapolationReport.js';
import { reportDocument, reportHtml } from './reportDocument.js';
import type { ReportDocument } from './reportDocument.js';
import type { ExperimentReport, ReportExtras, ReportPart } from './sections.js';
import { seedBanner } from './seedBanner.js';
import { summarize } from './summary.js';
import type { Summary } from './summary.js';
import { summaryHtml, summaryMarkdown } from './summaryTable.js';

// A report composed of its parts: one per dataset (the experiment's lead sections, the summary,
// then the common sections), the extrapolation, then the experiment's closing part.

/**
 * The version of the report renderer, written into every report.html as
 * `<meta name="boltzmann-report-renderer" content="…">`. Raise it whenever the summary, tables or
 * plots change, then regenerate the committed reports (`bench report --results <folder>`); a test
 * fails while a committed report is older.
 */
export const REPORT_RENDERER_VERSION = 4;

/** What {@link writeReport} produced. */
export interface ReportFiles {
  readonly summaries: readonly Summary[];
  readonly markdownPath: string;
  readonly htmlPath: string;
  readonly svgPaths: readonly string[];
  /** `runs.jsonl`: one flat row per run (see runRows.ts). */
  readonly runsPath: string;
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
  // The schedule: a cosine to its floor (constant at ×1), and decays on a plateau when asked for.
  const scheduleOf = (r: RunRecord): string => {
    const { minLrFraction, earlyStop: e } = c(r);
    const base = minLrFraction === 1 ? 'constant' : `cosine to ×${minLrFraction}`;
    return e?.lrDecays ? `${base}, ×${e.lrDecayFactor} on a plateau up to ${e.lrDecays}×` : base;
  };
  // The engine each run trained on (backend, ISA, vector width, threads); records before it was
  // recorded say nothing, so the older reports read as they did.
  const engine = (r: RunRecord) => r.engine?.line.replace(/^engine: /, '') ?? 'not recorded';
  const engines = records.some((r) => r.engine !== undefined) ? [`engine ${values(engine)}`] : [];
  return [
    `steps ${values((r) => c(r).steps)}`,
    `batch ${values((r) => c(r).batchSize)}`,
    `lr ${values((r) => c(r).lr)} (${values(scheduleOf)})`,
    `weight decay ${values((r) => c(r).weightDecay)}`,
    `clip ${values((r) => c(r).clipNorm)}`,
    `β ${values((r) => c(r).beta)}`,
    `J init σ ${values((r) => c(r).jInit)}`,
    `samplers: ${samplersByVariant(records)}`,
    ...engines,
    `git ${values((r) => r.gitCommit?.slice(0, 12) ?? 'unknown')}`,
  ].join('; ');
}

/** Which variants (columns) used which sampler: `boltzmann on dqa {"shots":256}, softmax on no sampler`. */
function samplersByVariant(records: readonly RunRecord[]): string {
  const by = new Map<string, Set<string>>();
  for (const r of records) {
    const key = samplerText(r.config);
    by.set(key, (by.get(key) ?? new Set()).add(r.config.column));
  }
  return [...by].map(([s, columns]) => `${[...columns].join(', ')} on ${s}`).join(', ') || '—';
}

/** The runs of each dataset, datasets in name order. */
function byDataset(records: readonly RunRecord[]): [string, RunRecord[]][] {
  const groups = new Map<string, RunRecord[]>();
  for (const r of records) {
    const list = groups.get(r.config.dataset) ?? [];
    list.push(r);
    groups.set(r.config.dataset, list);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** One dataset's part: the experiment's lead sections, the summary, the common sections. */
async function writeDataset(
  doc: ReportDocument,
  dataset: string,
  records: readonly RunRecord[],
  own: ExperimentReport,
): Promise<Summary> {
  const present = [...new Set(records.map(columnOf))];
  const { columns, baseline } = own.columnOrder?.(present) ?? {
    columns: orderColumns(present),
    baseline: softmaxColumn(present),
  };
  const modelAxes = own.modelAxesInRows === true;
  const summary = summarize(records, columns, baseline, { modelAxes });
  doc.openPart(dataset);
  for (const section of own.leadSections?.(dataset, records) ?? []) await doc.add(section);
  doc.md.push(summaryMarkdown(summary));
  doc.html.push(summaryHtml(summary));
  const withTime = own.timeTable?.(records) ?? true;
  const d = { dataset, records, summary, columns, baseline, modelAxes };
  for (const section of datasetSections(d, withTime)) await doc.add(section);
  doc.closePart();
  return summary;
}

/** `bench extrapolate`'s results: saved models evaluated past their training length. */
function extrapolationPart(results: readonly ExtrapolationResult[]): ReportPart | null {
  const table = extrapolationTable(results);
  if (!table) return null;
  return {
    heading: 'Extrapolation: saved models evaluated past their training length',
    sections: [
      {
        kind: 'table',
        title: 'Validation perplexity at each length',
        table,
        note: 'Each model is evaluated on the validation windows a run at that length uses; the difference is paired with softmax per seed.',
      },
      {
        kind: 'plot',
        name: 'extrapolation',
        title: 'perplexity against the evaluated length (mean ± std over seeds)',
        spec: extrapolationSpec(results),
      },
    ],
  };
}

/**
 * Writes the summary (Markdown + JSON), the SVG plots, a self-contained `report.html` and
 * `runs.jsonl` (one flat row per run) for the finished runs of one experiment, all atomically,
 * under `dir`.
 *
 * @param dir the experiment's results directory.
 * @param experiment which grid the records belong to (named in the title and summary.json).
 * @param records finished runs (any order).
 * @param extra what the experiment saved beside its runs (DQA: the fidelity sweep),
 *   `bench extrapolate` results, and the experiment's own sections, when present.
 * @returns the summaries and file paths.
 * @example
 * await writeReport('results/shakespeare', 'shakespeare', records);
 */
export async function writeReport(
  dir: string,
  experiment: Experiment,
  records: readonly RunRecord[],
  extra: ReportExtras & {
    extrapolation?: readonly ExtrapolationResult[];
    /** What the experiment adds (experiments/registry.ts experimentReport); default: nothing. */
    sections?: ExperimentReport;
  } = {},
): Promise<ReportFiles> {
  const own: ExperimentReport = extra.sections ?? {};
  const settings = settingsLine(records);
  const banner = seedBanner(records);
  const doc = reportDocument(dir, [
    `# Boltzmann attention bench: ${experiment}`,
    '',
    ...(banner ? [`> **${banner}**`, ''] : []),
    `${records.length} finished runs. Settings: ${settings}.`,
    '',
  ]);
  const summaries: Summary[] = [];
  for (const [dataset, list] of byDataset(records))
    summaries.push(await writeDataset(doc, dataset, list, own));
  const closing = [extrapolationPart(extra.extrapolation ?? []), own.closingPart?.(extra) ?? null];
  for (const part of closing) {
    if (!part) continue;
    doc.openPart(part.heading);
    for (const section of part.sections) await doc.add(section);
    doc.closePart();
  }
  const markdownPath = join(dir, 'summary.md');
  writeFileAtomic(markdownPath, `${doc.md.join('\n')}\n`);
  writeJsonAtomic(join(dir, 'summary.json'), {
    experiment,
    summaries,
    fidelity: extra.fidelity ?? null,
    extrapolation: extra.extrapolation ?? null,
  });
  const htmlPath = join(dir, 'report.html');
  writeFileAtomic(
    htmlPath,
    reportHtml(`Boltzmann attention bench: ${experiment}`, REPORT_RENDERER_VERSION, {
      runs: records.length,
      settings,
      banner,
      body: doc.html,
    }),
  );
  const runsPath = writeRunsJsonl(dir, records);
  return { summaries, markdownPath, htmlPath, svgPaths: doc.svgPaths, runsPath };
}
