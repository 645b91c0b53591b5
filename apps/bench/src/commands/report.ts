import { existsSync, readFileSync } from 'node:fs';
import { repeatable } from '../parseValues.js';
import { join } from 'node:path';
import { BenchError } from '../benchError.js';
import type { CommandSpec } from './commandSpec.js';
import type { MainIo } from '../io.js';
import { userPath } from '../paths.js';
import { experimentReport } from '../experiments/registry.js';
import { readRecords } from '../results/runFiles.js';
import { latestOfFamilies } from '../grid/capFamily.js';
import type { FidelityPoint } from '../report/plots/plots.js';
import type { RunRecord } from '../recordTypes.js';

/** A parsed `bench report` invocation. */
export interface ReportCommand {
  /** Results folders whose `runs/*.json` are reported together. */
  readonly from: readonly string[];
  /** Where summary.md, summary.json, report.html and plots/ are written (default: the first folder). */
  readonly out: string;
}

/** The command `bench report --results <dir> [--results <dir> …] [--out <dir>]`. */
export const reportCommand: CommandSpec<ReportCommand> = {
  name: 'report',
  summary: 'write the summary, plots and report.html of a results folder',
  description:
    "write the summary, plots and report of every finished run in one or more results folders (e.g. a grid's slices)",
  define: (cmd) => {
    cmd
      .requiredOption('--results <dir>', 'results folder; repeatable', repeatable, [] as string[])
      .option('--out <dir>', 'where to write the report (default: the first --results folder)');
  },
  parse: (options) => {
    const raw = options as { results: string[]; out?: string };
    if (raw.results.length === 0)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        'bench report needs at least one --results <dir>',
      );
    const from = raw.results.map(userPath);
    return { from, out: raw.out === undefined ? from[0]! : userPath(raw.out) };
  },
  run: (command, io) => runReport(command, io),
};

/** The DQA fidelity sweep a grid saved beside its runs (`fidelity.json`), or null. */
function readFidelity(dir: string): FidelityPoint[] | null {
  const path = join(dir, 'fidelity.json');
  if (!existsSync(path)) return null;
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { points: FidelityPoint[] }).points;
  } catch (error) {
    throw new BenchError('BENCH_RESULTS_INVALID', `${path} is not valid JSON`, { cause: error });
  }
}

/**
 * Writes one report over the finished runs of the given folders, which must all belong to one
 * experiment. A run present in two folders (the same id) is reported once; the first folder's
 * DQA fidelity sweep (`fidelity.json`), when there is one, is plotted as the grid's own report does.
 *
 * @throws BENCH_NO_RESULTS when there is no finished run; BENCH_RESULTS_INVALID for mixed experiments.
 */
export async function runReport(command: ReportCommand, io: MainIo): Promise<number> {
  const byId = new Map<string, RunRecord>();
  for (const dir of command.from) for (const r of readRecords(dir)) byId.set(r.id, r);
  // A run continued to a higher cap replaces the run it continued.
  const records = latestOfFamilies([...byId.values()]);
  if (records.length === 0)
    throw new BenchError('BENCH_NO_RESULTS', `no finished runs in ${command.from.join(', ')}`);
  const experiments = [...new Set(records.map((r) => r.config.experiment))];
  if (experiments.length > 1)
    throw new BenchError(
      'BENCH_RESULTS_INVALID',
      `the runs belong to several experiments (${experiments.join(', ')}); report each on its own`,
    );
  // The report modules load vega: imported here, not at the top, so `bench --help` stays fast.
  const [{ writeReport }, { readExtrapolations }] = await Promise.all([
    import('../report/writeReport.js'),
    import('../report/extrapolationReport.js'),
  ]);
  const extrapolation = [
    ...new Map(
      command.from.flatMap(readExtrapolations).map((e) => [`${e.model}|${e.config.seed}`, e]),
    ).values(),
  ];
  const fidelity = command.from.map(readFidelity).find((f) => f !== null) ?? undefined;
  const files = await writeReport(command.out, experiments[0]!, records, {
    extrapolation,
    ...(fidelity ? { fidelity } : {}),
    sections: await experimentReport(experiments[0]!),
  });
  io.out(`${records.length} runs of ${experiments[0]} from ${command.from.length} folder(s)`);
  io.out(`summary: ${files.markdownPath}`);
  io.out(`report:  ${files.htmlPath}`);
  return 0;
}
