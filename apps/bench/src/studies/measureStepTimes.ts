/*
 * Prints measured seconds per training step for representative run configs, in this process
 * (one core). The figures calibrate eta.ts and the README. Usage:
 *   node --import tsx --conditions=@boltzmann/source src/scripts/measureStepTimes.ts [filter]
 */
import { expandGrid } from '../grid/expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { estimateStepMs } from '../grid/eta.js';
import { runStepMs } from './runStepTime.js';

/** 64 validation windows for the tasks on Tiny Shakespeare (brackets takes no --eval-windows). */
const WINDOWS = ['--eval-windows', '64'];
const cases: string[][] = [
  ['shakespeare', '--lengths', '4', '--variants', 'softmax,boltzmann', ...WINDOWS],
  ['shakespeare', '--lengths', '8', '--variants', 'softmax,boltzmann', ...WINDOWS],
  ['shakespeare', '--lengths', '12', '--variants', 'boltzmann', ...WINDOWS],
  [
    'brackets',
    '--lengths',
    '8',
    '--d-model',
    '16',
    '--ffn',
    'off',
    '--variants',
    'softmax,boltzmann',
  ],
  [
    'brackets',
    '--lengths',
    '16',
    '--d-model',
    '16',
    '--ffn',
    'off',
    '--variants',
    'softmax,boltzmann',
  ],
  ['brackets', '--lengths', '16', '--d-model', '64', '--ffn', 'on', '--variants', 'boltzmann'],
  ['dqa', '--lengths', '4', '--datasets', 'shakespeare', '--shots', '0', ...WINDOWS],
  ['dqa', '--lengths', '8', '--datasets', 'shakespeare', '--shots', '0,256', ...WINDOWS],
];
const filter = process.argv[2];
const registry = await createBenchRegistry();
for (const argv of cases) {
  if (filter && !argv.join(' ').includes(filter)) continue;
  for (const config of expandGrid(parseBenchArgs(argv, () => undefined)!)) {
    if (config.column === 'exact' && config.experiment === 'dqa') continue;
    const steps = config.sampler === 'dqa' && config.length >= 8 ? 3 : 10;
    const perStep = (await runStepMs(config, registry, steps)) / 1000;
    const model = estimateStepMs(config) / 1000;
    console.log(
      `${config.dataset.padEnd(11)} ${config.column.padEnd(13)} T=${String(config.length).padEnd(2)} d=${String(config.dModel).padEnd(2)} ffn=${config.ffn ? 'on ' : 'off'} B=${config.batchSize}: ${(perStep * 1000).toFixed(1)} ms/step measured, ${(model * 1000).toFixed(1)} ms/step eta model`,
    );
  }
}
