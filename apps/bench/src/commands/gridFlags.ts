// The flags of every grid command (`bench shakespeare|brackets|dqa|gpt`) as commander declares
// them: the ones every task takes, grouped by concept, then the task's own (experiments/), and
// the other tasks' flags hidden so that passing one names the task it belongs to.
// gridOptions.ts turns what they parse into a BenchCommand.
import { Command, Option } from 'commander';
import { BenchError } from '../benchError.js';
import { repeatable } from '../parseValues.js';
import { presetNames } from '../experiments/presets.js';
import { EXPERIMENT_NAMES, EXPERIMENTS } from '../experiments/registry.js';
import type { Experiment } from '../types.js';
import type { Raw } from '../benchCommand.js';

/** The grid's axes and the preset they start from. */
function addAxisFlags(cmd: Command, experiment: Experiment): Command {
  return cmd
    .addOption(
      new Option('--preset <name>', 'grid preset')
        .choices(presetNames(experiment))
        .default('small'),
    )
    .option('--lengths <list>', 'context lengths T, e.g. 4,8')
    .option('--seeds <list>', 'seeds, e.g. 0,1,2')
    .option('--d-model <list>', 'model widths, e.g. 16,32,64')
    .option('--ffn <list>', 'feed-forward block on/off, e.g. on,off');
}

/** The optimizer, its schedule and how often a run evaluates, checkpoints and logs. */
function addTrainingFlags(cmd: Command): Command {
  return cmd
    .option('--steps <n>', 'training steps per run')
    .option('--batch-size <n>', 'batch size')
    .option(
      '--tokens-per-batch <n>',
      'tokens per batch: each run uses batch size n / T (overrides --batch-size)',
    )
    .option('--lr <x>', 'peak learning rate (AdamW, cosine decay)')
    .option('--min-lr-fraction <x>', 'final learning rate as a fraction of the peak')
    .option('--weight-decay <x>', 'AdamW weight decay (none on J)')
    .option('--clip-norm <x>', 'global gradient-norm clip')
    .option('--eval-every <n>', 'steps between evaluations')
    .option('--checkpoint-every <n>', 'steps between checkpoints')
    .option('--log-every <n>', 'steps between recorded train-loss points')
    .option(
      '--early-stop-patience <n>',
      'stop a run after n evaluations in a row that do not improve its best validation metric (default: off; --steps stays the cap)',
    )
    .option(
      '--early-stop-min-delta <x>',
      'with --early-stop-patience: the relative improvement on the best that counts (default 0)',
    )
    .option(
      '--early-stop-lr-decays <n>',
      'with --early-stop-patience: the first n times patience runs out, multiply the learning rate by --early-stop-lr-factor and go on (default 0: stop at once)',
    )
    .option(
      '--early-stop-lr-factor <x>',
      'with --early-stop-lr-decays: the factor in (0, 1) of each decay (default 0.1)',
    );
}

/** The model's shape and its Ising layer. */
function addModelFlags(cmd: Command, experiment: Experiment): Command {
  const small = EXPERIMENTS[experiment].presets.small;
  return cmd
    .option('--ffn-hidden <n>', 'FFN hidden width (default 4 × d_model)')
    .option('--beta <x>', 'inverse temperature of the Ising layer')
    .option('--j-init <x>', 'std of the N(0, σ²) initial couplings')
    .option(
      '--couplings <form>',
      'J parameterization of boltzmann/coupling runs: full, relative, banded:w',
      'full',
    )
    .addOption(
      new Option(
        '--positions <kind>',
        'positional embedding: learned, or none (a model that can run at longer T)',
      )
        .choices(['learned', 'none'])
        .default('learned'),
    )
    .option(
      '--layers <n>',
      `Transformer blocks (each with its own J per head) (default: the preset's, ${small?.layers ?? 1} for small)`,
    )
    .option(
      '--heads <n>',
      `attention heads per block (must divide d_model) (default: the preset's, ${small?.heads ?? 1} for small)`,
    );
}

/** How the runs are executed and where their results go (workers, queue, results folder). */
function addExecutionFlags(cmd: Command): Command {
  return cmd
    .option(
      '--sampler-timeout <s>',
      'seconds one sampler call may take before its run fails (0 = no limit) (default: 1800)',
    )
    .option(
      '--plugin <path>',
      'load a sampler plugin module (default export); repeatable',
      repeatable,
      [] as string[],
    )
    .option('--results <dir>', 'results directory (default: <repo>/results/<task>)')
    .option(
      '--workers <n>',
      'parallel worker processes (default: number of cores; 0 = run in this process)',
    )
    .addOption(
      new Option(
        '--engine <name>',
        'what trains the runs: the fused WebAssembly engine, or the tfjs path (same models and checkpoints)',
      )
        .choices(['wasm', 'tfjs'])
        .default('wasm'),
    )
    .addOption(
      new Option(
        '--engine-backend <name>',
        "the fused engine's kernels: native (the addon, at the CPU's vector width), wasm (f32x4), or auto: native where the addon is built, else wasm (the run's first line says which and why)",
      )
        .choices(['auto', 'native', 'wasm'])
        .default('auto'),
    )
    .option(
      '--engine-threads <n>',
      "threads of each run's engine steps (default: every core a run has to itself — all of them for a grid of one run or --workers 0/1, one each when the workers fill the cores; a run's results depend on its thread count only in float32 rounding)",
    )
    .option('--plain', 'plain log lines instead of progress bars')
    .option(
      '--save-models',
      "also write each finished run's trained model to <results>/models/<id>.safetensors",
    )
    .option(
      '--tensorboard',
      'also write TensorBoard event files (scalars, hyperparameters, J heatmaps) to <results>/tensorboard/<id>/',
    )
    .option('--dry-run', 'print the grid, its size and an ETA, then exit')
    .option(
      '--budget <amount>',
      'hardware samplers: refuse a grid whose estimate exceeds this, in QPU time (600s, 10min, 2h) or US dollars ($25, 25usd); the estimate is printed before anything is sent',
    )
    .option(
      '--strict',
      'hardware samplers: refuse a grid whose circuits fall below their expected-fidelity threshold (ibm minFidelity) instead of warning',
    );
}

/** The BullMQ queue a grid can train on instead of local processes. */
function addQueueFlags(cmd: Command): Command {
  return cmd
    .option(
      '--queue <url>',
      'train on a BullMQ queue in this Redis (redis://host:port/db, rediss://…; password in $BENCH_REDIS_PASSWORD); see `bench worker`',
    )
    .option(
      '--detach',
      'with --queue: enqueue the grid and return at once (`bench collect` writes the results)',
    )
    .option(
      '--remove-collected',
      "with --queue: remove the grid's finished jobs from Redis once their records are written here (another folder can then no longer collect them)",
    );
}

/** The long flags an experiment declares itself, e.g. `--types` for brackets and dqa. */
function ownFlags(experiment: Experiment): readonly Option[] {
  return EXPERIMENTS[experiment].addFlags(new Command()).options;
}

/**
 * Declares every flag of a grid command: its axes, the task's own, the other common ones, and the
 * other tasks' flags as hidden options, which {@link assertOwnFlags} refuses by name.
 *
 * @example
 * addGridOptions(program.command('brackets'), 'brackets'); // --mode, --types, not --data
 */
export function addGridOptions(cmd: Command, experiment: Experiment): Command {
  const own = EXPERIMENTS[experiment].addFlags(addAxisFlags(cmd, experiment));
  addQueueFlags(addExecutionFlags(addModelFlags(addTrainingFlags(own), experiment)));
  const declared = new Set(own.options.map((o) => o.long));
  for (const other of EXPERIMENT_NAMES)
    for (const o of ownFlags(other)) {
      if (declared.has(o.long)) continue;
      declared.add(o.long);
      own.addOption(new Option(o.flags).hideHelp());
    }
  return own;
}

/** `bench a`, `bench a and bench b`, `bench a, bench b and bench c`. */
function tasks(names: readonly Experiment[]): string {
  const all = names.map((e) => `bench ${e}`);
  return all.length < 2 ? all.join('') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
}

/**
 * Refuses a flag of another task (declared hidden by {@link addGridOptions}).
 *
 * @throws BENCH_INVALID_OPTION naming the task(s) the flag belongs to.
 */
export function assertOwnFlags(experiment: Experiment, raw: Raw): void {
  const own = new Set(ownFlags(experiment).map((o) => o.long));
  for (const other of EXPERIMENT_NAMES) {
    for (const o of ownFlags(other)) {
      if (own.has(o.long) || raw[o.attributeName()] === undefined) continue;
      const owners = EXPERIMENT_NAMES.filter((e) => ownFlags(e).some((f) => f.long === o.long));
      throw new BenchError(
        'BENCH_INVALID_OPTION',
        `${o.long} is a flag of ${tasks(owners)}; bench ${experiment} does not take it`,
      );
    }
  }
}
