import type { SamplerRegistry } from '@boltzmann/ising-core';
import { isatty } from 'node:tty';
import { BenchError } from './benchError.js';
import { expandGrid } from './grid.js';
import { EXIT } from './main.js';
import type { MainIo } from './main.js';
import type { BenchCommand } from './options.js';
import { barProgress, plainProgress } from './progress.js';
import { runGrid } from './runGrid.js';
import type { RunConfig, RunSettings } from './types.js';

/** Fails fast, before any worker starts: unknown sampler, bad plugin, missing data, bad bracket spec. */
async function preflight(command: BenchCommand, configs: readonly RunConfig[]): Promise<SamplerRegistry> {
  // Loaded here, not at the top: a dry run needs neither the samplers nor the data.
  const [{ createBenchRegistry }, { bracketTask }, { shakespeareCorpus }] = await Promise.all([
    import('./registry.js'),
    import('@boltzmann/datasets'),
    import('./internal/taskData.js'),
  ]);
  const registry = await createBenchRegistry(command.plugins);
  for (const name of new Set(configs.map((c) => c.sampler))) if (name !== 'none') registry.require(name);
  // Build each distinct sampler once so bad options (or missing credentials) fail here, not in a worker.
  const tried = new Set<string>();
  for (const c of configs) {
    const key = `${c.sampler}|${JSON.stringify(c.samplerOptions)}`;
    if (c.sampler === 'none' || tried.has(key)) continue;
    tried.add(key);
    const sampler = registry.require(c.sampler).create({ ...c.samplerOptions });
    await sampler.dispose?.();
  }
  for (const c of configs) {
    const plugin = c.sampler === 'none' ? undefined : registry.require(c.sampler);
    if (plugin && plugin.capabilities.maxSpins < c.length) {
      throw new BenchError('BENCH_INVALID_OPTION', `sampler "${plugin.name}" handles at most ${plugin.capabilities.maxSpins} spins, the grid has T = ${c.length}`);
    }
  }
  if (configs.some((c) => c.dataset === 'shakespeare')) await shakespeareCorpus(command.dataPath);
  const seen = new Set<string>();
  for (const c of configs) {
    const key = `${c.dataset}|${c.length}|${c.mode}|${c.types}`;
    if (c.dataset !== 'brackets' || seen.has(key)) continue;
    seen.add(key);
    bracketTask({ T: c.length, mode: c.mode, types: c.types as 1 | 2 | 3, seed: 0 });
  }
  return registry;
}

/**
 * Runs a parsed command: preflight checks, the grid on worker processes, the DQA fidelity
 * sweep (dqa only), then the report.
 *
 * @param command from `parseBenchArgs`.
 * @param io output sinks, progress display and stop signal.
 * @returns the exit code (0 ok, 1 run failures, 130 interrupted).
 * @throws the coded errors of every package (the caller prints them).
 */
export async function runCommand(command: BenchCommand, io: MainIo): Promise<number> {
  const configs = expandGrid(command);
  io.out(`bench ${command.experiment} (preset ${command.preset})`);
  if (!command.dryRun) await preflight(command, configs);
  const settings: RunSettings = {
    checkpointEvery: command.grid.checkpointEvery,
    logEvery: command.grid.logEvery,
    resultsDir: command.resultsDir,
    plugins: command.plugins,
    ...(command.dataPath ? { dataPath: command.dataPath } : {}),
  };
  const progress = io.progress ?? (!command.plain && isatty(1) ? barProgress() : plainProgress(io.out));
  const outcome = await runGrid(configs, { workers: command.workers, settings, progress, signal: io.signal, dryRun: command.dryRun, out: io.out });
  if (command.dryRun) {
    // Hardware samplers: also write what the first training batch would send (no credentials needed).
    const { hardwareDryRun } = await import('./hardwareDryRun.js');
    await hardwareDryRun(command, configs, io.out);
    return EXIT.ok;
  }
  let fidelity;
  if (command.experiment === 'dqa' && !outcome.interrupted) {
    const { runFidelitySweep } = await import('./fidelity.js');
    fidelity = await runFidelitySweep(command, io.out);
  }
  if (outcome.records.length > 0 || fidelity) {
    const { writeReport } = await import('./report.js');
    const report = await writeReport(command.resultsDir, command.experiment, outcome.records, fidelity ? { fidelity } : {});
    io.out(`summary: ${report.markdownPath}`);
    io.out(`report:  ${report.htmlPath}`);
  }
  for (const f of outcome.failures) io.err(`error [${f.code}]: ${f.label}: ${f.message}`);
  if (outcome.interrupted) {
    io.err(
      `error [BENCH_INTERRUPTED]: stopped with ${outcome.records.length}/${outcome.total} runs finished; ` +
        'unfinished runs keep their last checkpoint — rerun the same command to resume',
    );
    return EXIT.interrupted;
  }
  return outcome.failures.length > 0 ? EXIT.failed : EXIT.ok;
}
