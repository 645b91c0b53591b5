import { Option } from 'commander';
import { repeatable } from '../parseValues.js';
import { writeFileAtomic } from '../results/atomicWrite.js';
import { BenchError } from '../benchError.js';
import type { MainIo } from '../io.js';
import type { CommandSpec } from './commandSpec.js';
import { userPath } from '../paths.js';
import { readRecords } from '../results/runFiles.js';
import { runRows, toCsv, toJsonl } from '../results/runRows.js';
import { curveRows } from '../tracking/curves.js';
import type { RunRecord } from '../recordTypes.js';

/** The formats `bench export` writes. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;

/** A parsed `bench export` invocation. */
export interface ExportCommand {
  /** Results folders whose finished runs are exported together (a run in two is written once). */
  readonly from: readonly string[];
  readonly format: (typeof EXPORT_FORMATS)[number];
  /** The file to write, or undefined for stdout. */
  readonly out?: string;
  /** One row per run × step (the runs' curves, tracking/curves.ts) in place of one per run. */
  readonly curves?: boolean;
}

/** The command `bench export --results <dir> [--results <dir> …] --format csv|jsonl [--curves] [--out <file>]`. */
export const exportCommand: CommandSpec<ExportCommand> = {
  name: 'export',
  summary: 'write the runs of results folders as CSV or JSON Lines',
  description:
    'write one flat row per finished run (config, final metric and loss, wall time, commit) as CSV or JSON Lines, for pandas or R',
  define: (cmd) => {
    cmd
      .requiredOption('--results <dir>', 'results folder; repeatable', repeatable, [] as string[])
      .addOption(
        new Option('--format <format>', 'csv (RFC 4180, with a header) or jsonl')
          .choices(EXPORT_FORMATS)
          .makeOptionMandatory(),
      )
      .option('--curves', "one row per run × step: each run's curves from metrics/<id>.jsonl")
      .option('--out <file>', 'file to write (default: stdout)');
  },
  parse: (options) => {
    const raw = options as {
      results: string[];
      format: ExportCommand['format'];
      out?: string;
      curves?: boolean;
    };
    if (raw.results.length === 0)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        'bench export needs at least one --results <dir>',
      );
    return {
      from: raw.results.map(userPath),
      format: raw.format,
      ...(raw.out === undefined ? {} : { out: userPath(raw.out) }),
      ...(raw.curves ? { curves: true } : {}),
    };
  },
  run: (command, io) => runExport(command, io),
};

/**
 * Writes the flat rows of every finished run in the folders (sorted by run id) to the file, or
 * to stdout; with `curves`, one row per run × step of its curves.
 *
 * @throws BENCH_NO_RESULTS when a folder is missing or there is no finished run;
 *   BENCH_CORRUPT_METRICS (`--curves`) when a metrics file has a line that is not a row.
 */
export async function runExport(
  command: ExportCommand,
  io: Pick<MainIo, 'out' | 'err' | 'write'>,
): Promise<number> {
  const byId = new Map<string, { dir: string; record: RunRecord }>();
  for (const dir of command.from)
    for (const r of readRecords(dir)) byId.set(r.id, { dir, record: r });
  if (byId.size === 0)
    throw new BenchError('BENCH_NO_RESULTS', `no finished runs in ${command.from.join(', ')}`);
  const runs = [...byId.values()];
  runs.sort((a, b) => (a.record.id < b.record.id ? -1 : 1));
  const rows = command.curves
    ? runs.flatMap((x) => curveRows(x.dir, x.record))
    : runRows(runs.map((x) => x.record));
  const text = command.format === 'csv' ? toCsv(rows) : toJsonl(rows);
  if (command.out === undefined) {
    (io.write ?? ((t: string) => process.stdout.write(t)))(text);
  } else {
    writeFileAtomic(command.out, text);
    io.out(`${rows.length} ${command.curves ? 'curve rows' : 'runs'} written to ${command.out}`);
  }
  return 0;
}
