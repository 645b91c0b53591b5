// The flags of every grid command (`bench shakespeare|brackets|dqa|gpt`) as commander declares
// them: names, help text and defaults. gridOptions.ts turns what they parse into a BenchCommand.
import { repeatable } from '../cli/parseValues.js';
import { Option } from 'commander';
import type { Command } from 'commander';
import { ALL_VARIANTS, presetGrid, presetNames } from '../experiments/presets.js';
import type { Experiment } from '../types.js';
export function addGridOptions(cmd: Command, experiment: Experiment): Command {
  const spec = presetGrid(experiment, 'small');
  return cmd
    .addOption(
      new Option('--preset <name>', 'grid preset')
        .choices(presetNames(experiment))
        .default('small'),
    )
    .option('--variants <list>', `attention variants (${ALL_VARIANTS.join(',')})`)
    .option('--lengths <list>', 'context lengths T, e.g. 4,8')
    .option('--seeds <list>', 'seeds, e.g. 0,1,2')
    .option('--steps <n>', 'training steps per run')
    .option('--d-model <list>', 'model widths, e.g. 16,32,64')
    .option('--ffn <list>', 'feed-forward block on/off, e.g. on,off')
    .option('--ffn-hidden <n>', 'FFN hidden width (default 4 × d_model)')
    .option('--mode <list>', 'bracket string mode(s): balanced, prefix')
    .option('--types <n>', 'bracket types (1-3)')
    .option('--batch-size <n>', 'batch size')
    .option(
      '--tokens-per-batch <n>',
      'tokens per batch: each run uses batch size n / T (overrides --batch-size)',
    )
    .option('--lr <x>', 'peak learning rate (AdamW, cosine decay)')
    .option('--min-lr-fraction <x>', 'final learning rate as a fraction of the peak')
    .option('--weight-decay <x>', 'AdamW weight decay (none on J)')
    .option('--clip-norm <x>', 'global gradient-norm clip')
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
      `Transformer blocks (each with its own J per head) (default: the preset's, ${spec.layers ?? 1} for small)`,
    )
    .option(
      '--heads <n>',
      `attention heads per block (must divide d_model) (default: the preset's, ${spec.heads ?? 1} for small)`,
    )
    .option('--eval-every <n>', 'steps between evaluations')
    .option('--eval-windows <n>', 'fixed validation windows (shakespeare)')
    .option('--checkpoint-every <n>', 'steps between checkpoints')
    .option('--log-every <n>', 'steps between recorded train-loss points')
    .option(
      '--sampler <name>',
      `sampler plugin used by boltzmann/coupling runs (default: "${spec.sampler ?? 'exact'}")`,
    )
    .option('--sampler-options <json>', 'JSON options for the sampler', '{}')
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
    .option('--data <path>', 'path of Tiny Shakespeare input.txt')
    .option('--results <dir>', 'results directory (default: <repo>/results/<task>)')
    .option(
      '--workers <n>',
      'parallel worker processes (default: number of cores; 0 = run in this process)',
    )
    .option('--plain', 'plain log lines instead of progress bars')
    .option(
      '--save-models',
      "also write each finished run's trained model to <results>/models/<id>.json",
    )
    .option('--dry-run', 'print the grid, its size and an ETA, then exit')
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

export function addGptOptions(cmd: Command): Command {
  return cmd
    .option('--warmup-steps <n>', 'linear learning-rate warm-up steps before the cosine decay')
    .option(
      '--eval-batches <n>',
      'random batches of each split (train, val) averaged per evaluation',
    );
}

export function addDqaOptions(cmd: Command): Command {
  return cmd
    .option('--datasets <list>', 'datasets: shakespeare,brackets')
    .option('--shots <list>', 'DQA shots per column (0 = exact output distribution), e.g. 0,256')
    .option(
      '--dqa-options <json>',
      'JSON options for the dqa sampler (tau, steps, order, schedule, calibrate)',
      '{}',
    )
    .option('--sweep-taus <list>', 'fidelity sweep: anneal times τ', '1,2,4,8,16,32')
    .option('--sweep-steps <list>', 'fidelity sweep: Trotter steps', '8,16,32,64,128');
}
