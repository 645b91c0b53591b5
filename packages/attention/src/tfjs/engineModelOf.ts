// The tfjs side of the engine's trainer: a Transformer as the EngineModel the engine takes (its
// config, sampler and variables' values), with the trained weights written back into its variables.
import * as tf from '@tensorflow/tfjs';
import type { EngineModel } from '../model/trainerTypes.js';
import type { Transformer } from './modelTypes.js';

/**
 * The engine's view of a tfjs model: its configuration, sampler and current weights, and an
 * `onSync` that writes trained weights into its variables (so `evaluate`, `toJSON` and
 * checkpoints of the model see what the engine trained).
 *
 * @summary The engine's view of a tfjs model.
 * @example
 * import { createEngineTrainer, createTransformer, engineModelOf, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const trainer = createEngineTrainer(engineModelOf(model), { totalSteps: 1000 });
 * console.log(Object.keys(trainer.weights()).length); // the model's parameters, now on the engine
 * await trainer.engine.dispose();
 * model.dispose();
 * @category Training
 */
export function engineModelOf(model: Transformer): EngineModel {
  const weights: Record<string, Float32Array> = {};
  for (const p of model.parameters) weights[p.name] = p.variable.dataSync() as Float32Array;
  return {
    config: model.config,
    sampler: model.sampler,
    weights,
    onSync: (trained) => {
      tf.tidy(() => {
        for (const p of model.parameters)
          p.variable.assign(tf.tensor(trained[p.name]!, p.variable.shape));
      });
    },
  };
}
