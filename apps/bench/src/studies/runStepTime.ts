// The step timing the ETA calibration studies share: a run's model trained as a run trains it.
import { createTaskData } from '../experiments/taskData.js';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { createRunModel } from '../training/runModel.js';
import { DEFAULT_ENGINE } from '../types.js';
import type { EngineChoice, RunConfig } from '../types.js';

/** Milliseconds per training step of `config`'s run: the mean of `steps` after two warm-up steps. */
export async function runStepMs(
  config: RunConfig,
  registry: SamplerRegistry,
  steps: number,
  engine: EngineChoice = DEFAULT_ENGINE,
): Promise<number> {
  const data = await createTaskData(config);
  const runModel = await createRunModel(config, data, registry, undefined, {}, engine);
  try {
    for (let i = 0; i < 2; i += 1) await runModel.step(data.next(config.batchSize));
    const t0 = performance.now();
    for (let i = 0; i < steps; i += 1) await runModel.step(data.next(config.batchSize));
    return (performance.now() - t0) / steps;
  } finally {
    runModel.dispose();
  }
}
