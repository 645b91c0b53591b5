/** What the user picks in the Train panel; the worker builds both models from it. */

/** The two training tasks the site ships. */
export type TaskName = 'brackets' | 'shakespeare';

/** The samplers the boltzmann model can train with. */
export type SamplerName = 'exact' | 'transfer-matrix' | 'tap' | 'gibbs' | 'dqa';

/** The two variants trained side by side. */
export type Variant = 'softmax' | 'boltzmann';

export const VARIANTS: readonly Variant[] = ['softmax', 'boltzmann'];

export const SAMPLER_NAMES: readonly SamplerName[] = [
  'exact',
  'transfer-matrix',
  'tap',
  'gibbs',
  'dqa',
];

/** Transfer-matrix bandwidth: J is banded with this width, so the sampler is exact at any T. */
export const PLAYGROUND_BANDWIDTH = 4;

/** Context lengths offered in the UI. */
export const LENGTHS: readonly number[] = [4, 6, 8, 10, 12, 16];

/** Model widths offered in the UI. */
export const D_MODELS: readonly number[] = [8, 16, 32, 64];

/** Samplers whose cost grows as 2^T per query (or worse): the UI caps T for them. */
export const SAMPLER_MAX_LENGTH: Readonly<Record<SamplerName, number>> = {
  exact: 16,
  'transfer-matrix': 16,
  tap: 16,
  gibbs: 12,
  dqa: 8,
};

export interface TrainConfig {
  readonly task: TaskName;
  /** Context length T (the number of key positions, so J is T × T). */
  readonly length: number;
  readonly dModel: number;
  readonly sampler: SamplerName;
  /** Inverse temperature of both variants' attention (softmax of βh; Ising model at β). */
  readonly beta: number;
  /** Optimizer steps of each model. */
  readonly steps: number;
  readonly batchSize: number;
  /** Peak learning rate of AdamW (cosine decay to a tenth). */
  readonly lr: number;
  /** Held-out evaluation every this many steps (and at step 0 and at the end). */
  readonly evalEvery: number;
  readonly seed: number;
  /** Threads of the engine and of the exact, transfer-matrix and tap samplers (2 needs a cross-origin-isolated page). */
  readonly threads: 1 | 2;
  /**
   * What trains the models: the attention package's WebAssembly engine, or its tfjs path (for
   * comparison only: `?engine=tfjs` in the address).
   */
  readonly engine: 'wasm' | 'tfjs';
}

export const DEFAULT_CONFIG: TrainConfig = {
  task: 'brackets',
  length: 8,
  dModel: 16,
  sampler: 'exact',
  beta: 1,
  steps: 300,
  batchSize: 32,
  lr: 1e-2,
  evalEvery: 25,
  seed: 0,
  threads: 1,
  engine: 'wasm',
};

/** Human-readable problems with a config, empty when it can be trained. */
export function configProblems(config: TrainConfig): string[] {
  const problems: string[] = [];
  if (!LENGTHS.includes(config.length)) problems.push(`T must be one of ${LENGTHS.join(', ')}`);
  if (!D_MODELS.includes(config.dModel))
    problems.push(`d_model must be one of ${D_MODELS.join(', ')}`);
  if (!SAMPLER_NAMES.includes(config.sampler))
    problems.push(`unknown sampler ${JSON.stringify(config.sampler)}`);
  else if (config.length > SAMPLER_MAX_LENGTH[config.sampler]) {
    problems.push(
      `the ${config.sampler} sampler is limited to T ≤ ${SAMPLER_MAX_LENGTH[config.sampler]} here (its cost grows quickly with T)`,
    );
  }
  if (!(config.beta >= 0.1 && config.beta <= 4)) problems.push('β must be between 0.1 and 4');
  if (!(Number.isInteger(config.steps) && config.steps >= 1 && config.steps <= 20_000))
    problems.push('steps must be an integer from 1 to 20000');
  if (!(Number.isInteger(config.batchSize) && config.batchSize >= 1 && config.batchSize <= 256))
    problems.push('batch must be an integer from 1 to 256');
  if (!(config.lr > 0 && config.lr <= 0.1)) problems.push('learning rate must be in (0, 0.1]');
  if (config.threads !== 1 && config.threads !== 2) problems.push('threads must be 1 or 2');
  if (config.engine !== 'wasm' && config.engine !== 'tfjs')
    problems.push('engine must be wasm or tfjs');
  if (!(Number.isInteger(config.evalEvery) && config.evalEvery >= 1))
    problems.push('evaluation interval must be a positive integer');
  return problems;
}
