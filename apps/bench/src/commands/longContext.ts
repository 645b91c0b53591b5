import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFileAtomic } from '../results/atomicWrite.js';
import { join, resolve } from 'node:path';
import { repoRoot } from '../paths.js';
import type { CommandSpec } from './commandSpec.js';
import { choiceItem, parseList } from '../parseValues.js';
import { EXTRAPOLATION_LENGTHS, LONG_CONTEXT_SLICES } from '../experiments/longContextSlices.js';
import type { LongContextSlice } from '../experiments/longContextSlices.js';
import { EXIT } from '../io.js';
import type { MainIo, RunCli } from '../io.js';
import { userPath } from '../paths.js';
import { formatDuration } from '../grid/progress.js';
import { readRecord, recordPath } from '../results/runFiles.js';

type Part = LongContextSlice['part'];
const PARTS: readonly Part[] = ['paper', 'brackets', 'extrapolation', 'gpt', 'longer', 'sampler'];

/** A parsed `bench long-context` invocation. */
export interface LongContextCommand {
  readonly root: string;
  readonly parts: readonly Part[];
  readonly dryRun: boolean;
  /** A published results tree whose finished run records seed the root first (`--from`). */
  readonly from?: string;
}

/** The command `bench long-context [--only parts] [--root dir] [--dry-run] [--from dir]`. */
export const longContextCommand: CommandSpec<LongContextCommand> = {
  name: 'long-context',
  summary: 'run the long-context experiment in slices',
  description:
    'run (or resume) the long-context experiment of issue 13, slice by slice, then write its reports',
  define: (cmd) => {
    cmd
      .option('--only <parts>', `parts to run: ${PARTS.join(', ')}`, PARTS.join(','))
      .option('--root <dir>', 'results root (one folder per part)', 'results/long-context')
      .option('--dry-run', "print each slice's grid and ETA, run nothing")
      .option(
        '--from <dir>',
        'first copy the finished run records of a published tree (e.g. docs/results/long-context) that the root lacks, so only the rest trains (also with --dry-run)',
      );
  },
  parse: (options) => {
    const raw = options as { only: string; root: string; dryRun?: boolean; from?: string };
    const root =
      raw.root === 'results/long-context' ? resolve(repoRoot(), raw.root) : userPath(raw.root);
    return {
      root,
      parts: parseList('--only', raw.only, choiceItem(PARTS), PARTS.join('/')),
      dryRun: raw.dryRun === true,
      ...(raw.from === undefined ? {} : { from: userPath(raw.from) }),
    };
  },
  run: (command, io, cli) => runLongContext(command, io, cli),
};

/**
 * Runs the slices of the chosen parts in order (each resumes where it stopped), evaluates the
 * extrapolation models at longer T, and writes one report per results folder. Stops at the
 * first slice that fails or is interrupted, with its exit code. Each step is a bench command run
 * through `main` (handed in by the CLI, which imports this module).
 */
export async function runLongContext(
  command: LongContextCommand,
  io: MainIo,
  main: RunCli,
): Promise<number> {
  const slices = LONG_CONTEXT_SLICES.filter((s) => command.parts.includes(s.part));
  if (command.from !== undefined)
    for (const folder of [...new Set(slices.map((s) => s.folder))])
      seedRecords(join(command.from, folder), join(command.root, folder), io.out);
  let etaSeconds = 0;
  let pending = 0;
  const planned: MainIo = {
    ...io,
    onPlan: (plan) => {
      etaSeconds += plan.etaSeconds;
      pending += plan.pending;
    },
  };
  for (const [k, slice] of slices.entries()) {
    const argv = [
      ...slice.argv,
      '--results',
      join(command.root, slice.folder),
      ...(command.dryRun ? ['--dry-run'] : []),
    ];
    io.out(`\n== slice ${k + 1}/${slices.length} (${slice.part}): bench ${argv.join(' ')}`);
    const code = await main(argv, planned);
    if (code !== EXIT.ok) return code;
    if (io.signal?.aborted === true) return EXIT.interrupted;
  }
  if (command.dryRun) {
    io.out(
      `\ntotal: ${pending} run${pending === 1 ? '' : 's'} to train in ${slices.length} slices, ≈ ${formatDuration(etaSeconds)} (the slices' estimates added; rough, ±50 %)`,
    );
    return EXIT.ok;
  }
  if (command.parts.includes('extrapolation')) {
    // The report modules load vega: imported when needed, so `bench --help` stays fast.
    const { EXTRAPOLATION_FOLDER } = await import('../report/extrapolationReport.js');
    const dir = join(command.root, 'extrapolation');
    const models = existsSync(join(dir, 'models'))
      ? readdirSync(join(dir, 'models')).filter((f) => f.endsWith('.json'))
      : [];
    for (const file of models) {
      const out = join(dir, EXTRAPOLATION_FOLDER, file);
      if (existsSync(out)) continue;
      const code = await main(
        [
          'extrapolate',
          '--model',
          join(dir, 'models', file),
          '--lengths',
          EXTRAPOLATION_LENGTHS.join(','),
          '--out',
          out,
        ],
        io,
      );
      if (code !== EXIT.ok) return code;
    }
  }
  for (const folder of [...new Set(slices.map((s) => s.folder))]) {
    const code = await main(['report', '--results', join(command.root, folder)], io);
    if (code !== EXIT.ok) return code;
  }
  return EXIT.ok;
}

/**
 * Copies the finished run records of `fromDir/runs` that `toDir/runs` lacks, each checked
 * first (a record must parse and carry the id its file name gives) and copied byte for byte,
 * atomically.
 * A run with a record counts as finished, so the grid trains only the rest.
 *
 * @throws BENCH_CORRUPT_CHECKPOINT naming the first source record that is not a run record.
 */
export function seedRecords(fromDir: string, toDir: string, out: (line: string) => void): number {
  const runs = join(fromDir, 'runs');
  if (!existsSync(runs)) return 0;
  let copied = 0;
  for (const file of readdirSync(runs)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const id = file.slice(0, -'.json'.length);
    if (existsSync(recordPath(toDir, id))) continue;
    readRecord(fromDir, id); // throws on a corrupt or misnamed record
    writeFileAtomic(recordPath(toDir, id), readFileSync(recordPath(fromDir, id)));
    copied += 1;
  }
  out(`seeded ${copied} finished run record${copied === 1 ? '' : 's'} from ${runs}`);
  return copied;
}
