/*
 * Prints measured milliseconds per training step of GPT `baby` (the `gpt` task's preset, its own
 * data and sampler registry, as a run trains) on the engine with one thread and with two, beside
 * the ETA model's estimate (which assumes two workers sharing the machine: about 1.5× a process
 * alone). The figures calibrate eta.ts's engine constants for the samplers. Usage:
 *   node --import tsx --conditions=@boltzmann/source src/studies/measureGptSteps.ts \
 *     [softmax sigmoid boltzmann:transfer-matrix boltzmann:tap …]
 */
import { parseBenchArgs } from '../cli/parseArgs.js';
import { estimateStepMs } from '../grid/eta.js';
import { expandGrid } from '../grid/expandGrid.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { runStepMs } from './runStepTime.js';

const STEPS = 6;
const cases = process.argv.slice(2);
const registry = await createBenchRegistry();
for (const name of cases.length > 0 ? cases : ['softmax', 'sigmoid', 'boltzmann:transfer-matrix']) {
  const [variant, sampler] = name.split(':');
  const argv = ['gpt', '--preset', 'baby', '--variants', variant!, '--seeds', '0'];
  if (sampler !== undefined) argv.push('--sampler', sampler);
  if (sampler === 'transfer-matrix') argv.push('--couplings', 'banded:8');
  const [config] = expandGrid(parseBenchArgs(argv, () => undefined)!);
  for (const engineThreads of [1, 2]) {
    const engine = { name: 'wasm', threads: engineThreads } as const;
    const ms = await runStepMs(config!, registry, STEPS, engine);
    const model = estimateStepMs(config!, engine);
    console.log(
      `${name.padEnd(26)} engine threads ${engineThreads}: ${ms.toFixed(0)} ms/step measured, ${model.toFixed(0)} ms/step eta model`,
    );
  }
}
process.exit(0);
