import { DWAVE_PROBLEMS_PER_SUBMIT, adapterErrorOf } from '@boltzmann/quantum-adapters';
import type { CostEstimate } from '@boltzmann/quantum-adapters';
import { usesSampler } from '@boltzmann/ising-core';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { readdirSync, rmSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from '../benchError.js';
import { runId, runLabel } from '../grid/expandGrid.js';
import { EVAL_CHUNK_SIZE } from '../training/runModelTypes.js';
import type { BenchCommand } from '../benchCommand.js';
import type { RunConfig } from '../types.js';
import { costText, limitLines, readCostEstimate, trafficCost } from './costLines.js';
import type { DryRunOptions, HardwareEstimate, SamplerTraffic } from './types.js';
import type { PendingRun } from '../grid/types.js';

export type { HardwareEstimate, SamplerTraffic } from './types.js';
import { fidelityLines } from './fidelityLines.js';

const NO_TRAFFIC: SamplerTraffic = { calls: 0, problems: 0, submitRequests: 0, ibmJobs: 0 };

function addTraffic(a: SamplerTraffic, b: SamplerTraffic, times = 1): SamplerTraffic {
  return {
    calls: a.calls + times * b.calls,
    problems: a.problems + times * b.problems,
    submitRequests: a.submitRequests + times * b.submitRequests,
    ibmJobs: a.ibmJobs + times * b.ibmJobs,
  };
}

/** True when the run calls a sampler at all (softmax/sigmoid runs carry `'none'`). */
function callsSampler(c: RunConfig): boolean {
  return c.sampler !== 'none' && usesSampler(c.variant);
}

/**
 * The runs whose sampler gets a request-writing dry run: a plugin with `capabilities.dryRun`
 * (dwave, braket, ibm), or any plugin whose
 * `--sampler-options` already carry a `dryRun` object (the user vouches that it understands it —
 * an unknown plugin is never called, since one that ignored the option would really send).
 *
 * @param configs the expanded grid.
 * @returns the runs that would call such a sampler, in grid order (empty: `--dry-run` only prints the grid).
 * @example
 * const [first] = hardwareRuns(expandGrid(command), registry);
 */
export function hardwareRuns(
  configs: readonly RunConfig[],
  registry: SamplerRegistry,
): RunConfig[] {
  return configs.filter((c) => {
    if (!callsSampler(c)) return false;
    const dry = c.samplerOptions.dryRun;
    return (
      registry.get(c.sampler)?.capabilities.dryRun === true ||
      (typeof dry === 'object' && dry !== null)
    );
  });
}

/**
 * Sampler traffic of one run: every training step prepares one batch (one call per head of
 * `batchSize × T` problems); every evaluation (each `evalEvery` steps before the end, plus the
 * final one) runs the evaluation rows in chunks of {@link EVAL_CHUNK_SIZE} sequences.
 *
 * @param config the run.
 * @param evalRows sequences of each of the run's evaluation batches.
 * @param pubsPerJob circuits per IBM job (the ibm adapter's, from its dry run; default 300).
 * @param fromStep the step the run starts from (its checkpoint's; 0 for a new run): the steps
 *   and evaluations up to it are done and not counted.
 * @returns `step` (one training step) and `run` (the run's steps after `fromStep`).
 * @example
 * samplerTrafficOfRun(config, [256, 256]).step.problems; // 64 · T for batch 64, one head
 */
export function samplerTrafficOfRun(
  config: RunConfig,
  evalRows: readonly number[],
  pubsPerJob = 300,
  fromStep = 0,
): { step: SamplerTraffic; run: SamplerTraffic } {
  const call = (sequences: number): SamplerTraffic => ({
    calls: config.heads,
    problems: config.heads * sequences * config.length,
    submitRequests:
      config.heads * Math.ceil((sequences * config.length) / DWAVE_PROBLEMS_PER_SUBMIT),
    ibmJobs: config.heads * Math.ceil((sequences * config.length) / pubsPerJob),
  });
  const step = call(config.batchSize);
  let evaluation = NO_TRAFFIC;
  for (const rows of evalRows) {
    for (let start = 0; start < rows; start += EVAL_CHUNK_SIZE)
      evaluation = addTraffic(evaluation, call(Math.min(EVAL_CHUNK_SIZE, rows - start)));
  }
  // Evaluations every `evalEvery` steps before the last (those after `fromStep`; a checkpoint is
  // written after its step's evaluation), and the final one.
  const every = config.evalEvery;
  const evaluations = Math.floor((config.steps - 1) / every) - Math.floor(fromStep / every) + 1;
  const steps = config.steps - fromStep;
  return {
    step,
    run: addTraffic(addTraffic(NO_TRAFFIC, step, steps), evaluation, evaluations),
  };
}

function listFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) files.push(...listFiles(path));
    else files.push(path);
  }
  return files;
}

/** Groups `problem-0000.qasm … problem-0255.qasm` into one line per name pattern. */
function fileLines(files: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const f of files) {
    const key = f.replace(/\d+(?=[^/\\]*$)/g, '#');
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].map((g) =>
    g.length === 1 ? `  ${g[0]}` : `  ${g[0]} … ${g[g.length - 1]} (${g.length} files)`,
  );
}

const n = (x: number): string => x.toLocaleString('en-US');

/** Where each hardware run starts: its pending entry's step, undefined once finished. */
function startSteps(
  pending: readonly PendingRun[] | undefined,
): (c: RunConfig) => number | undefined {
  if (pending === undefined) return () => 0;
  const byId = new Map(pending.map((p) => [p.id, p.startStep]));
  return (c) => byId.get(runId(c));
}

/** `, from step 0`, or what a resumed grid leaves out (finished runs, resumed runs' done steps). */
function pendingText(
  hardwareRunCount: number,
  runs: readonly RunConfig[],
  fromStep: (c: RunConfig) => number | undefined,
): string {
  const finished = hardwareRunCount - runs.length;
  const resumed = runs.filter((c) => (fromStep(c) ?? 0) > 0).length;
  if (finished === 0 && resumed === 0) return ', from step 0';
  const parts = [
    ...(finished > 0 ? [`${finished} finished left out`] : []),
    ...(resumed > 0
      ? [`${resumed} counted from ${resumed === 1 ? 'its' : 'their'} checkpoint`]
      : []),
  ];
  return ` still to train, ${parts.join(', ')}`;
}

/** Minutes as `42 min` or `6.5 h`. */
const duration = (minutes: number): string =>
  minutes < 120 ? `${Math.ceil(minutes)} min` : `${(minutes / 60).toFixed(1)} h`;

/** What the traffic means for the sampler's service, in its own terms, and what it costs. */
function trafficDetail(
  sampler: string,
  t: SamplerTraffic,
  estimate: CostEstimate | undefined,
): string {
  const cost = estimate ? `: ${costText(trafficCost(estimate, t))}` : '';
  if (sampler === 'dwave')
    return ` (${n(t.submitRequests)} D-Wave submit requests of ≤ ${DWAVE_PROBLEMS_PER_SUBMIT} problems, plus status polls and one answer request per problem${cost})`;
  if (sampler === 'braket')
    return ` (${n(t.problems)} Braket quantum tasks, one CreateQuantumTask each${cost})`;
  if (sampler === 'ibm') {
    const rate = estimate?.maxJobsPerMinute;
    const paced =
      rate === undefined || t.ibmJobs <= rate
        ? ''
        : `, submitted at ≤ ${rate} a minute over ≥ ${duration((t.ibmJobs - rate) / rate)}`;
    return ` (${n(t.ibmJobs)} IBM Sampler V2 jobs of ≤ ${estimate?.problemsPerJob ?? 300} circuits${paced}${cost})`;
  }
  return cost === '' ? '' : ` (${cost.slice(2)})`;
}

/**
 * `--dry-run` for hardware samplers: builds the first hardware run's model and data, prepares
 * its first training batch with the sampler created as `{ ...samplerOptions, dryRun: { dir } }`
 * (`dir` = `<results>/dry-run`, emptied first; the adapters then need no token, bucket or AWS
 * credentials and send nothing), expects the adapters' `ADAPTER_DRY_RUN`, and prints the files
 * written, what one step and the whole grid would send and cost (the sampler's `estimate.json`
 * scaled by the traffic), the provider's limits beside it, and (ibm) the circuits' expected
 * fidelity. A real run of a hardware grid does this first, into `<results>/estimate`.
 *
 * @param command the parsed command.
 * @param configs its expanded grid.
 * @param out output sink.
 * @param registry the command's sampler registry (default: the bench's, with the command's plugins).
 * @param options `folder`: the folder under `command.resultsDir` the requests go to (default
 *   `dry-run`); `pending`: the runs left to train (finished runs skipped, resumed ones counted
 *   from their checkpoint's step; default: every run from step 0).
 * @returns false when no run uses a hardware sampler (nothing printed) or none is left to train,
 *   else the estimate.
 * @throws BENCH_DRY_RUN when the sampler answered instead of stopping; any other error of the sampler, model or data.
 * @example
 * await hardwareDryRun(command, expandGrid(command), console.log);
 */
export async function hardwareDryRun(
  command: BenchCommand,
  configs: readonly RunConfig[],
  out: (line: string) => void,
  registry?: SamplerRegistry,
  options: DryRunOptions = {},
): Promise<HardwareEstimate | false> {
  const [{ createBenchRegistry }, { createRunModel }, { createTaskData }] = await Promise.all([
    import('../samplers/registry.js'),
    import('../training/runModel.js'),
    import('../experiments/taskData.js'),
  ]);
  registry ??= await createBenchRegistry(command.plugins);
  const all = hardwareRuns(configs, registry);
  const fromStep = startSteps(options.pending);
  const runs = all.filter((c) => fromStep(c) !== undefined);
  const first = runs[0];
  if (!first) {
    if (all.length > 0) out(`every run using "${all[0]!.sampler}" has finished: nothing to send`);
    return false;
  }
  registry.require(first.sampler);
  const dir = join(command.resultsDir, options.folder ?? 'dry-run');
  // Files of an earlier dry run would be listed as if this one had written them.
  rmSync(dir, { recursive: true, force: true });
  // The bench's dryRun replaces the user's (a fallback would answer and training would go on).
  const config: RunConfig = {
    ...first,
    samplerOptions: { ...first.samplerOptions, dryRun: { dir } },
  };
  const data = await createTaskData(config, command.dataPath);
  const model = await createRunModel(config, data, registry);
  let stopped = false;
  try {
    await model.prepare(data.next(config.batchSize));
  } catch (error) {
    if (adapterErrorOf(error)?.code !== 'ADAPTER_DRY_RUN') throw error;
    stopped = true;
  } finally {
    model.dispose();
  }
  if (!stopped) {
    throw new BenchError(
      'BENCH_DRY_RUN',
      `sampler "${first.sampler}" answered instead of stopping after writing its requests: it does not implement the dryRun option, so nothing was checked`,
    );
  }
  const files = listFiles(dir);
  out(`dry run of sampler "${first.sampler}": nothing was sent, no credentials were used`);
  out(`first training batch of ${runLabel(first)}: ${files.length} files written under ${dir}`);
  for (const line of fileLines(files)) out(line);

  const estimate = readCostEstimate(dir, first.sampler);
  const evalRowsByKey = new Map<string, number[]>();
  let total = NO_TRAFFIC;
  let step: SamplerTraffic | undefined;
  const dataKey = (c: RunConfig): string =>
    `${c.dataset}|${c.length}|${c.mode}|${c.types}|${c.seed}|${c.evalWindows}`;
  for (const c of runs) {
    let rows = evalRowsByKey.get(dataKey(c));
    if (!rows) {
      const d = dataKey(c) === dataKey(config) ? data : await createTaskData(c, command.dataPath);
      rows = d.evalBatches.map((b) => b.inputs.length / c.length);
      evalRowsByKey.set(dataKey(c), rows);
    }
    const t = samplerTrafficOfRun(c, rows, estimate?.problemsPerJob, fromStep(c));
    step ??= t.step;
    total = addTraffic(total, t.run);
  }
  const requests = (t: SamplerTraffic): string => trafficDetail(first.sampler, t, estimate);
  const s = step!;
  out(
    `one training step sends ${n(s.calls)} sampler call${s.calls === 1 ? '' : 's'} with ${n(s.problems)} problems${requests(s)}`,
  );
  out(
    `the whole grid (${runs.length} run${runs.length === 1 ? '' : 's'} using "${first.sampler}"${pendingText(all.length, runs, fromStep)}, evaluations included) sends ` +
      `${n(total.calls)} sampler calls with ${n(total.problems)} problems${requests(total)}`,
  );
  const totalCost = estimate ? trafficCost(estimate, total) : undefined;
  if (estimate && totalCost) for (const line of limitLines(estimate, totalCost)) out(line);
  const fidelity = fidelityLines(dir);
  for (const line of fidelity?.lines ?? []) out(line);
  return { total: totalCost, below: fidelity?.below ?? [] };
}
