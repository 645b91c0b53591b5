import {
  mergeSecretOptions,
  redactSecrets,
  splitSecretOptions,
} from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isatty } from 'node:tty';
import { BenchError } from '../benchError.js';
import { expandGrid } from '../grid/expandGrid.js';
import { assertKnownName } from '../suggestName.js';
import { engineThreadsFor } from './gridOptions.js';
import { EXIT } from '../io.js';
import type { MainIo } from '../io.js';
import type { BenchCommand } from '../benchCommand.js';
import { experimentOf, experimentReport } from '../experiments/registry.js';
import { barProgress, plainProgress } from '../grid/progress.js';
import { runGrid } from '../grid/executor.js';
import { readGrid } from '../grid/plan.js';
import type { GridExecutor, GridOutcome, GridRunOptions } from '../grid/types.js';
import type { RunConfig, RunSettings } from '../types.js';

/**
 * Every start-up check of a run, also done by `--dry-run`: what the samplers declare (they exist,
 * build from their options, hardware ones in their dry-run mode, which needs no credentials, and
 * take each run's length and couplings), then what the experiment asks of its data.
 */
async function preflight(
  command: BenchCommand,
  configs: readonly RunConfig[],
  registry: SamplerRegistry,
): Promise<void> {
  const [{ hardwareRuns }, { checkSamplers }] = await Promise.all([
    import('../hardware/hardwareDryRun.js'),
    import('../samplers/samplerChecks.js'),
  ]);
  const dir = join(command.resultsDir, 'dry-run');
  const runs = new Set(command.dryRun ? hardwareRuns(configs, registry) : []);
  await checkSamplers(configs, registry, {
    secrets: command.samplerSecrets,
    ...(runs.size > 0 ? { dryRun: { runs, dir } } : {}),
  });
  await experimentOf(command.experiment).checkData(command, configs);
}

/** Each sampler the grid's runs name is registered (built in or `--plugin`); else the closest name. */
function assertSamplersKnown(configs: readonly RunConfig[], registry: SamplerRegistry): void {
  const names = registry.list().map((p) => p.name);
  for (const sampler of new Set(configs.map((c) => c.sampler)))
    if (sampler !== 'none') assertKnownName('--sampler', sampler, names, 'registered samplers');
}

/** `--results` must be a directory or not exist yet. */
function assertResultsDir(dir: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new BenchError(
      'BENCH_RESULTS_INVALID',
      `--results ${dir} is a file; pass a directory (it is created when missing)`,
    );
  }
}

/**
 * The command with the credentials the chosen plugin declares (`secretOptions`) moved from its
 * sampler options to `samplerSecrets`; parsing already moved every credential-looking key.
 */
function withDeclaredSecrets(command: BenchCommand, registry: SamplerRegistry): BenchCommand {
  const declared = registry.get(command.sampler)?.secretOptions ?? [];
  if (declared.length === 0) return command;
  const split = splitSecretOptions(command.samplerOptions, declared);
  return {
    ...command,
    samplerOptions: split.options,
    samplerSecrets: mergeSecretOptions(command.samplerSecrets, split.secrets),
  };
}

/** The settings every run of the command executes with (never part of its config or id). */
function runSettingsOf(command: BenchCommand, runs: number): RunSettings {
  const { threads, ...engine } = command.engine;
  const queued = command.queue !== undefined;
  return {
    checkpointEvery: command.grid.checkpointEvery,
    logEvery: command.grid.logEvery,
    resultsDir: command.resultsDir,
    plugins: command.plugins,
    ...(command.dataPath ? { dataPath: command.dataPath } : {}),
    ...(Object.keys(command.samplerSecrets).length > 0
      ? { samplerSecrets: command.samplerSecrets }
      : {}),
    ...(command.saveModels ? { saveModels: true } : {}),
    ...(command.tensorboard ? { tensorboard: true } : {}),
    ...(command.samplerTimeoutMs === undefined
      ? {}
      : { samplerTimeoutMs: command.samplerTimeoutMs }),
    engine: { ...engine, threads: engineThreadsFor(threads, command.workers, runs, queued) },
    workers: command.workers,
  };
}

/**
 * The executor of the command's grid: the BullMQ queue (`--queue`; a dry run plans locally),
 * this process (`--workers 0`, with the command's registry), or the local process pool. Each
 * loads only its own code.
 */
async function executorOf(
  command: BenchCommand,
  options: GridRunOptions,
  registry: SamplerRegistry,
): Promise<GridExecutor> {
  if (command.queue && !command.dryRun) {
    const { queueExecutor } = await import('../queue/queueGrid.js');
    return queueExecutor({
      ...options,
      queue: command.queue,
      detach: command.detach,
      collectOnly: command.collect === true,
      removeCollected: command.removeCollected === true,
    });
  }
  if (command.workers === 0)
    return (await import('../pool/inProcessExecutor.js')).inProcessExecutor(options, registry);
  return (await import('../pool/poolExecutor.js')).poolExecutor(options);
}

/** The exit code of a grid that ran, after its failures and its stop have been told. */
function exitCodeOf(command: BenchCommand, outcome: GridOutcome, io: MainIo): number {
  for (const f of outcome.failures) io.err(`error [${f.code}]: ${f.label}: ${f.message}`);
  if (outcome.interrupted) {
    io.err(
      `error [BENCH_INTERRUPTED]: stopped with ${outcome.records.length}/${outcome.total} runs finished; ` +
        (command.queue
          ? 'the queued runs go on on the workers — rerun the same command (or `bench collect`) to collect them'
          : 'unfinished runs keep their last checkpoint — rerun the same command to resume'),
    );
    return EXIT.interrupted;
  }
  if (outcome.unfinished > 0) {
    io.err(
      `error [BENCH_GRID_INCOMPLETE]: ${outcome.records.length}/${outcome.total} runs finished; ` +
        'run `bench collect` with the same flags again once the workers are done',
    );
    return EXIT.failed;
  }
  return outcome.failures.length > 0 ? EXIT.failed : EXIT.ok;
}

/**
 * Runs a parsed command: preflight checks, the grid on its executor (worker processes, this
 * process, or the queue), the DQA fidelity sweep (dqa only), then the report.
 *
 * @param command from `parseBenchArgs`.
 * @param io output sinks, progress display and stop signal.
 * @returns the exit code (0 ok, 1 run failures, 130 interrupted).
 * @throws the coded errors of every package (the caller prints them).
 */
export async function runCommand(parsed: BenchCommand, rawIo: MainIo): Promise<number> {
  assertResultsDir(parsed.resultsDir);
  // The last line of defence: no line this bench prints quotes a credential it was given.
  // The queue's password too (from $BENCH_REDIS_PASSWORD or the URL).
  const queueSecret = parsed.queue?.password === undefined ? {} : { queue: parsed.queue.password };
  let secrets: Readonly<Record<string, unknown>> = { ...parsed.samplerSecrets, ...queueSecret };
  const redact = (line: string): string => redactSecrets(line, secrets);
  const io: MainIo = {
    ...rawIo,
    out: (l) => rawIo.out(redact(l)),
    err: (l) => rawIo.err(redact(l)),
  };
  const { createBenchRegistry } = await import('../samplers/registry.js');
  const registry = await createBenchRegistry(parsed.plugins);
  const command = withDeclaredSecrets(parsed, registry);
  secrets = { ...command.samplerSecrets, ...queueSecret };
  const configs = expandGrid(command);
  assertSamplersKnown(configs, registry);
  io.out(`bench ${command.experiment} (preset ${command.preset})`);
  const options: GridRunOptions = {
    workers: command.workers,
    settings: runSettingsOf(command, configs.length),
    progress: io.progress ?? (!command.plain && isatty(1) ? barProgress() : plainProgress(io.out)),
    ...(io.signal ? { signal: io.signal } : {}),
    dryRun: command.dryRun,
    out: io.out,
    ...(io.onPlan ? { onPlan: io.onPlan } : {}),
  };
  // Hardware samplers: the estimate of the runs still to train is printed and checked against
  // --budget and --strict before anything else (it needs no credentials, so it comes even when
  // they are missing). Reading the results folder here only reads: the plan reports what it finds.
  if (!command.dryRun && command.collect !== true) {
    const { gateHardwareGrid } = await import('../hardware/hardwareGate.js');
    const quiet = { ...options, dryRun: true, out: () => undefined };
    const { pending } = readGrid(configs, quiet, command.queue === undefined);
    await gateHardwareGrid(command, configs, io.out, registry, pending);
  }
  await preflight(command, configs, registry);
  // One grid loop, three executors (same records and report).
  const outcome = await runGrid(configs, await executorOf(command, options, registry), options);
  if (command.detach && !command.dryRun) return EXIT.ok;
  if (command.dryRun) {
    // Hardware samplers: also write what the first training batch would send (no credentials needed).
    const [{ hardwareDryRun }, { hardwareRefusal }] = await Promise.all([
      import('../hardware/hardwareDryRun.js'),
      import('../hardware/hardwareGate.js'),
    ]);
    const estimate = await hardwareDryRun(command, configs, io.out, registry);
    const refusal = estimate === false ? undefined : hardwareRefusal(command, estimate);
    if (refusal === undefined) return EXIT.ok;
    io.err(`error [${refusal.code}]: ${refusal.message}; a real run would be refused`);
    return EXIT.failed;
  }
  // The experiment's own step after a finished grid (dqa: its fidelity sweep), reported with it.
  const afterGrid = experimentOf(command.experiment).afterGrid;
  const extras = afterGrid && !outcome.interrupted ? await afterGrid(command, io.out) : {};
  if (outcome.records.length > 0 || Object.keys(extras).length > 0) {
    const { writeReport } = await import('../report/writeReport.js');
    const sections = await experimentReport(command.experiment);
    const report = await writeReport(command.resultsDir, command.experiment, outcome.records, {
      ...extras,
      sections,
    });
    io.out(`summary: ${report.markdownPath}`);
    io.out(`report:  ${report.htmlPath}`);
  }
  return exitCodeOf(command, outcome, io);
}
