// The model itself: its variables and the Transformer over them (the layers of a pass are in transformerPass.ts).
import * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import { quietCpuBanner } from './backend.js';
import { prepareEstimates } from './prepareEstimates.js';
import type { PreparedEstimates } from '../model/headEstimates.js';
import type { ParamSpec } from '../core/paramSpecs.js';
import { sequenceLength } from '../model/tokenBatch.js';
import { readAsync, readOutsideTidy } from './tensorData.js';
import { COUPLINGS, RELATIVE_COUPLINGS, layerName, paramSpecs } from '../core/paramSpecs.js';
import { createCouplingBuilder } from './couplingBuilder.js';
import { parseCouplingForm } from '../core/couplingForm.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type {
  PassOptions,
  Transformer,
  TransformerJSON,
  TransformerParameter,
  TransformerPrepared,
} from './modelTypes.js';
import { block, embed, fields, head, norm1 } from './transformerPass.js';
import type { ModelParts } from './transformerPass.js';
import { usesSampler } from '../core/variants.js';

let modelCount = 0;

function dropoutStepOf(options: PassOptions): number | undefined {
  const step = options?.dropoutStep;
  if (step !== undefined && (!Number.isInteger(step) || step < 0)) {
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `dropoutStep must be a non-negative integer, got ${String(step)}`,
    );
  }
  return step;
}

/** How the model holds its sampler: whether it disposes it, and how long it awaits one answer (checked). */
export interface SamplerHold {
  readonly ownsSampler: boolean;
  readonly samplerTimeoutMs: number;
}

/** One batch of a pass: its tokens, batch size, checked length and dropout step. */
interface PassBatch {
  readonly inputs: ArrayLike<number>;
  readonly batchSize: number;
  readonly t: number;
  readonly step: number | undefined;
}

/** The model's variables, named under a scope of their own, from the initial values. */
function createParameters(
  config: ResolvedTransformerConfig,
  values: (spec: ParamSpec) => Float32Array,
): TransformerParameter[] {
  const scope = `boltzmann-transformer-${++modelCount}`;
  return paramSpecs(config).map((spec) => {
    const initial = tf.tensor(values(spec), [...spec.shape]);
    const variable = tf.variable(initial, true, `${scope}/${spec.name}`);
    initial.dispose(); // the variable holds its own reference to the data
    return { name: spec.name, decay: spec.decay, variable };
  });
}

/** Layer `layer`'s estimates: `prepared.layers[ℓ]`, or `prepared` itself for layer 0 (the one-layer form). */
function estimatesOf(
  prepared: TransformerPrepared | undefined,
  layer: number,
): PreparedEstimates | undefined {
  return prepared === undefined
    ? undefined
    : (prepared.layers?.[layer] ?? (layer === 0 ? prepared : undefined));
}

/**
 * Phase 1 of a sampler variant: each layer's estimates from the sampler. Layer ℓ's fields depend
 * on layer ℓ − 1's output, which needs layer ℓ − 1's estimates: the layers are prepared one after
 * another.
 */
async function prepareLayers(
  parts: ModelParts,
  batch: PassBatch,
  samplerTimeoutMs: number,
  alive: () => void,
): Promise<TransformerPrepared> {
  const { inputs, batchSize, t, step } = batch;
  const { heads, beta } = parts.config;
  const layers = parts.config.layers ?? 1;
  let x = tf.tidy(() => embed(parts, inputs, batchSize, t, step));
  const estimates: PreparedEstimates[] = [];
  try {
    for (let layer = 0; layer < layers; layer++) {
      const stream = x;
      const h = await readAsync(() =>
        fields(parts, norm1(parts, stream, layer), layer, batchSize, t),
      );
      const j = await readAsync(() => parts.couplingSlice(layer, t));
      const prepared = await prepareEstimates(
        h,
        j,
        { batch: batchSize, heads, length: t },
        parts.sampler!,
        beta,
        { timeoutMs: samplerTimeoutMs, variant: parts.config.variant as 'boltzmann' | 'coupling' },
      );
      estimates.push(prepared);
      if (layer + 1 < layers) {
        alive();
        x = tf.tidy(() => block(parts, stream, layer, batchSize, t, prepared, step).x);
        stream.dispose();
      }
    }
  } finally {
    x.dispose();
  }
  return layers === 1 ? estimates[0]! : { heads: estimates[0]!.heads, layers: estimates };
}

/** Phase 2: the logits of a batch through every block, with the estimates of phase 1. */
function logitsPass(
  parts: ModelParts,
  batch: PassBatch,
  prepared: TransformerPrepared | undefined,
): tf.Tensor3D {
  const { inputs, batchSize, t, step } = batch;
  return tf.tidy(() => {
    let x = embed(parts, inputs, batchSize, t, step);
    for (let layer = 0; layer < (parts.config.layers ?? 1); layer++)
      x = block(parts, x, layer, batchSize, t, estimatesOf(prepared, layer), step).x;
    return head(parts, x);
  });
}

/** Every block's attention weights, layer-major, read out of the tensors (no dropout). */
function attentionPass(
  parts: ModelParts,
  batch: PassBatch,
  prepared: TransformerPrepared | undefined,
): Float32Array {
  const { inputs, batchSize, t } = batch;
  const layers = parts.config.layers ?? 1;
  return readOutsideTidy(() => {
    let x = embed(parts, inputs, batchSize, t);
    const all: tf.Tensor4D[] = [];
    for (let layer = 0; layer < layers; layer++) {
      const out = block(parts, x, layer, batchSize, t, estimatesOf(prepared, layer), undefined);
      all.push(out.w);
      x = out.x;
    }
    return layers === 1 ? all[0]! : tf.concat(all, 0);
  });
}

/** The effective J of every head at the full length (relative: Toeplitz; banded: masked), layer-major. */
function effectiveCouplings(parts: ModelParts): Float64Array[] {
  const { maxLength, heads } = parts.config;
  const size = maxLength * maxLength;
  const out: Float64Array[] = [];
  for (let layer = 0; layer < (parts.config.layers ?? 1); layer++) {
    const data = readOutsideTidy(() => parts.couplingSlice(layer, maxLength));
    for (let hd = 0; hd < heads; hd++)
      out.push(Float64Array.from(data.subarray(hd * size, (hd + 1) * size)));
  }
  return out;
}

/** The model's JSON form: its configuration and every parameter's shape and values. */
function modelJSON(
  config: ResolvedTransformerConfig,
  parameters: readonly TransformerParameter[],
): TransformerJSON {
  const out: Record<string, { shape: number[]; data: number[] }> = {};
  for (const { name, variable } of parameters)
    out[name] = { shape: [...variable.shape], data: Array.from(variable.dataSync()) };
  return { format: 'boltzmann-attention/transformer', version: 1, config, weights: out };
}

/** Builds the model around initial parameter values. */
export function buildTransformer(
  config: ResolvedTransformerConfig,
  sampler: Sampler | undefined,
  values: (spec: ParamSpec) => Float32Array,
  hold: SamplerHold,
): Transformer {
  const { ownsSampler, samplerTimeoutMs } = hold;
  // tfjs's default in Node without initBackend is cpu (tf.backend() starts it, as the first
  // tensor below would).
  tf.backend();
  if (tf.getBackend() === 'cpu') quietCpuBanner();
  const parameters = createParameters(config, values);
  const byName = new Map(parameters.map((p) => [p.name, p.variable]));
  const { variant, maxLength } = config;
  let disposed = false;
  const alive = (): void => {
    if (disposed)
      throw new AttentionError('ATTENTION_DISPOSED', 'this Transformer has been disposed');
  };
  const batchOf = (inputs: ArrayLike<number>, batchSize: number, options?: PassOptions) => {
    alive();
    const t = sequenceLength(inputs, batchSize, maxLength, config.vocabSize);
    return {
      inputs,
      batchSize,
      t,
      step: options === undefined ? undefined : dropoutStepOf(options),
    };
  };
  const form = parseCouplingForm(config.couplingForm ?? 'full', maxLength);
  const couplingBuilder = createCouplingBuilder(form, config.heads);
  const p = (name: string): tf.Variable => byName.get(name)!;
  const parts: ModelParts = {
    config,
    sampler,
    p,
    optional: (name) => byName.get(name),
    couplingSlice: (layer, t) =>
      couplingBuilder.couplings(
        p(layerName(layer, form.kind === 'relative' ? RELATIVE_COUPLINGS : COUPLINGS)),
        t,
      ),
  };
  /** Phase 1 for an asynchronous sampler only: a synchronous one is called in the same pass. */
  const prepareIfAsync = (inputs: ArrayLike<number>, batchSize: number) =>
    sampler?.capabilities.async === true
      ? model.prepare(inputs, batchSize)
      : Promise.resolve(undefined);

  const model: Transformer = {
    config,
    sampler,
    parameters,
    async prepare(inputs, batchSize, options = {}) {
      const batch = batchOf(inputs, batchSize, options);
      if (!usesSampler(variant)) return undefined;
      return prepareLayers(parts, batch, samplerTimeoutMs, alive);
    },
    logits(inputs, batchSize, prepared, options = {}) {
      return logitsPass(parts, batchOf(inputs, batchSize, options), prepared);
    },
    async forward(inputs, batchSize) {
      return model.logits(inputs, batchSize, await prepareIfAsync(inputs, batchSize));
    },
    async attention(inputs, batchSize) {
      const batch = batchOf(inputs, batchSize);
      const prepared = await prepareIfAsync(inputs, batchSize);
      alive();
      return attentionPass(parts, batch, prepared);
    },
    couplings() {
      alive();
      return usesSampler(variant) ? effectiveCouplings(parts) : [];
    },
    toJSON() {
      alive();
      return modelJSON(config, parameters);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const { variable } of parameters) variable.dispose();
      couplingBuilder.dispose();
      // A sampler created from a name belongs to the model; an instance passed in belongs to the caller.
      if (ownsSampler && sampler?.dispose !== undefined) {
        void Promise.resolve()
          .then(() => sampler.dispose?.())
          .catch(() => undefined);
      }
    },
  };
  return model;
}
