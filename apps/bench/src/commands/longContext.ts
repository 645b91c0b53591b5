import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFileAtomic } from '../results/atomicWrite.js';
import { join, resolve } from 'node:path';
import { repoRoot } from '../paths.js';
import type { CommandSpec } from './commandSpec.js';
import { choiceItem, intItem, parseList } from '../parseValues.js';
import { CONVERGED_SET } from '../experiments/longContextConvergedSlices.js';
import { EXTRAPOLATION_LENGTHS, LONG_CONTEXT_SET } from '../experiments/longContextSlices.js';
import type { LongContextSliceSet } from '../experiments/longContextSlices.js';
import { BenchError } from '../benchError.js';
import { EXIT } from '../io.js';
import type { MainIo, RunCli } from '../io.js';
import { userPath } from '../paths.js';
import { formatDuration } from '../grid/progress.js';
import { readRecord, recordPath } from '../results/runFiles.js';

/** A parsed `bench long-context` invocation. */
export interface LongContextCommand {
  /** Issue 13's slices, or issue 41's converged ones (`--converged`). */
  readonly set: LongContextSliceSet;
  readonly root: string;
  readonly parts: readonly string[];
  /** `--slices`: the slices to run, by their 1-based number in the set (all when absent). */
  readonly slices?: readonly number[];
  readonly dryRun: boolean;
  /** A published results tree whose finished run records seed the root first (`--from`). */
  readonly from?: string;
}

/**
 * The command `bench long-context [--converged] [--only parts] [--slices list] [--root dir]
 * [--dry-run] [--from dir]`.
 */
export const longContextCommand: CommandSpec<LongContextCommand> = {
  name: 'long-context',
  summary: 'run the long-context experiment in slices',
  description:
    'run (or resume) the long-context experiment of issue 13 (or with --converged, the converged one of issue 41), slice by slice, then write its reports',
  define: (cmd) => {
    cmd
      .option(
        '--converged',
        "issue 41's converged experiment (early stopping, T = 64-256) instead of issue 13's",
      )
      .option(
        '--only <parts>',
        `parts to run: ${LONG_CONTEXT_SET.parts.join(', ')}; with --converged: ${CONVERGED_SET.parts.join(', ')} (default: all)`,
      )
      .option(
        '--slices <list>',
        'only these slices, by the numbers the dry run prints (e.g. 2 or 1,3)',
      )
      .option(
        '--root <dir>',
        `results root (one folder per part) (default: ${LONG_CONTEXT_SET.defaultRoot}; with --converged: ${CONVERGED_SET.defaultRoot})`,
      )
      .option('--dry-run', "print each slice's grid and ETA, run nothing")
      .option(
        '--from <dir>',
        'first copy the finished run records of a published tree (e.g. docs/results/long-context) that the root lacks, so only the rest trains (also with --dry-run)',
      );
  },
  parse: (options) => {
    const raw = options as {
      converged?: boolean;
      only?: string;
      slices?: string;
      root?: string;
      dryRun?: boolean;
      from?: string;
    };
    const set = raw.converged === true ? CONVERGED_SET : LONG_CONTEXT_SET;
    const n = set.slices.length;
    const parts = parseList(
      '--only',
      raw.only ?? set.parts.join(','),
      choiceItem(set.parts),
      set.parts.join('/'),
    );
    const slices =
      raw.slices === undefined
        ? undefined
        : parseList('--slices', raw.slices, intItem(1, n), `integers in [1, ${n}]`);
    const outside = slices?.find((k) => !parts.includes(set.slices[k - 1]!.part));
    if (outside !== undefined)
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `--slices ${outside} is a slice of part ${set.slices[outside - 1]!.part}, which --only leaves out`,
      );
    return {
      set,
      root: raw.root === undefined ? resolve(repoRoot(), set.defaultRoot) : userPath(raw.root),
      parts,
      ...(slices === undefined ? {} : { slices }),
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
  const slices = command.set.slices
    .map((slice, k) => ({ ...slice, number: k + 1 }))
    .filter((s) => command.parts.includes(s.part))
    .filter((s) => command.slices === undefined || command.slices.includes(s.number));
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
  const total = command.set.slices.length;
  for (const slice of slices) {
    const argv = [
      ...slice.argv,
      '--results',
      join(command.root, slice.folder),
      ...(command.dryRun ? ['--dry-run'] : []),
    ];
    io.out(`\n== slice ${slice.number}/${total} (${slice.part}): bench ${argv.join(' ')}`);
    const code = await main(argv, planned);
    if (code !== EXIT.ok) return code;
    if (io.signal?.aborted === true) return EXIT.interrupted;
  }
  if (command.dryRun) {
    io.out(
      `\ntotal: ${pending} run${pending === 1 ? '' : 's'} to train in ${slices.length} slice${slices.length === 1 ? '' : 's'}, ≈ ${formatDuration(etaSeconds)} (the slices' estimates added; rough, ±50 %${command.set.etaNote === undefined ? '' : `; ${command.set.etaNote}`})`,
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
