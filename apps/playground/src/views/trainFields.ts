/** The Train form's inputs: what is trained (task, T, d_model, sampler, β, threads) and how (steps, batch, rate). */
import { h, numberRow, rangeRow, selectRow } from '../dom.js';
import { MAX_NUMBER_CHARS, boundNumberField } from '../inputBounds.js';
import type { NumberSpec } from '../inputBounds.js';
import {
  D_MODELS,
  DEFAULT_CONFIG,
  LENGTHS,
  SAMPLER_MAX_LENGTH,
  SAMPLER_NAMES,
} from '../training/trainConfig.js';
import type { SamplerName, TaskName, TrainConfig } from '../training/trainConfig.js';

const SAMPLER_LABELS: Record<SamplerName, string> = {
  exact: 'exact (enumeration)',
  'transfer-matrix': 'transfer-matrix (band)',
  tap: 'tap (mean field)',
  gibbs: 'gibbs (MCMC)',
  dqa: 'dqa (quantum anneal)',
};

const STEPS: NumberSpec = {
  label: 'Steps',
  min: 1,
  max: 20_000,
  integer: true,
  fallback: DEFAULT_CONFIG.steps,
};
const BATCH: NumberSpec = {
  label: 'Batch',
  min: 1,
  max: 256,
  integer: true,
  fallback: DEFAULT_CONFIG.batchSize,
};
const LR: NumberSpec = {
  label: 'Learning rate',
  min: 1e-4,
  max: 0.1,
  integer: false,
  fallback: DEFAULT_CONFIG.lr,
};

type SelectRow = ReturnType<typeof selectRow>;
type NumberRow = ReturnType<typeof numberRow>;

/** The fields that say what is trained: task, T, d_model, sampler, β and sampler threads. */
export interface ModelFields {
  readonly task: SelectRow;
  readonly length: SelectRow;
  readonly dModel: SelectRow;
  readonly sampler: SelectRow;
  readonly beta: ReturnType<typeof rangeRow>;
  readonly threads: SelectRow;
}

/** The Steps, Batch and Learning-rate fields, and `bound()`, which holds each to its range. */
export interface NumberFields {
  readonly steps: NumberRow;
  readonly batch: NumberRow;
  readonly lr: NumberRow;
  /** Holds each field to its range and returns a note on each value it changed. */
  bound(): string[];
}

/**
 * The task, T, d_model, sampler, β and sampler-threads rows, set to `initial`.
 *
 * @param initial - the starting settings (from the URL or the defaults)
 * @returns the rows, each a label and its input
 */
export function modelFields(initial: TrainConfig): ModelFields {
  const task = selectRow(
    'task',
    'Task',
    [
      { value: 'brackets', label: 'Bracket matching' },
      { value: 'shakespeare', label: 'Tiny Shakespeare' },
    ],
    initial.task,
  );
  const length = selectRow(
    'length',
    'T (context)',
    LENGTHS.map((T) => ({ value: String(T), label: String(T) })),
    String(initial.length),
  );
  const dModel = selectRow(
    'dmodel',
    'd_model',
    D_MODELS.map((d) => ({ value: String(d), label: String(d) })),
    String(initial.dModel),
  );
  const sampler = selectRow(
    'sampler',
    'Sampler',
    SAMPLER_NAMES.map((s) => ({ value: s, label: SAMPLER_LABELS[s] })),
    initial.sampler,
  );
  const beta = rangeRow('beta', 'β', { min: 0.25, max: 3, step: 0.25, value: initial.beta }, (v) =>
    v.toFixed(2),
  );
  const threads = selectRow(
    'threads',
    'Threads',
    [
      { value: '1', label: '1' },
      { value: '2', label: '2 (Web Workers)' },
    ],
    String(initial.threads),
  );
  return { task, length, dModel, sampler, beta, threads };
}

/**
 * The Steps, Batch and Learning-rate inputs, and `bound()`, which holds each to its range (a
 * script or the URL can set any value) and returns notes on what it changed. A field holding more
 * characters than any number in range is bounded as it is typed, its note passed to `onNote`.
 *
 * @param initial - the starting settings
 * @param onNote - shows a note on a value bounded as it was typed
 * @returns the three rows and `bound`
 */
export function numberFields(initial: TrainConfig, onNote: (note: string) => void): NumberFields {
  const steps = numberRow('steps', 'Steps', { ...STEPS, step: 1, value: initial.steps });
  const batch = numberRow('batch', 'Batch', { ...BATCH, step: 1, value: initial.batchSize });
  const lr = numberRow('lr', 'Learning rate', { ...LR, step: 'any', value: initial.lr });
  const fields: ReadonlyArray<[HTMLInputElement, NumberSpec]> = [
    [steps.input, STEPS],
    [batch.input, BATCH],
    [lr.input, LR],
  ];
  for (const [input, spec] of fields) {
    input.addEventListener('input', () => {
      const note = input.value.length > MAX_NUMBER_CHARS && boundNumberField(input, spec);
      if (note) onNote(note);
    });
  }
  const bound = (): string[] =>
    fields.flatMap(([input, spec]) => boundNumberField(input, spec) ?? []);
  return { steps, batch, lr, bound };
}

/**
 * The form's grid: each field's label beside its input, in the form's order.
 *
 * @param model - the model fields
 * @param numbers - the optimizer fields
 * @returns the `.controls` grid
 */
export function fieldGrid(model: ModelFields, numbers: NumberFields): HTMLElement {
  const { task, length, dModel, sampler, beta, threads } = model;
  const { steps, batch, lr } = numbers;
  return h(
    'div',
    { class: 'controls' },
    task.label,
    task.select,
    length.label,
    length.select,
    dModel.label,
    dModel.select,
    sampler.label,
    sampler.select,
    beta.label,
    beta.wrap,
    threads.label,
    threads.select,
    steps.label,
    steps.input,
    batch.label,
    batch.input,
    lr.label,
    lr.input,
  );
}

/**
 * Every input of the form, for listening to changes.
 *
 * @param model - the model fields
 * @param numbers - the optimizer fields
 * @returns the inputs and selects in the form's order
 */
export function fieldInputs(
  model: ModelFields,
  numbers: NumberFields,
): Array<HTMLInputElement | HTMLSelectElement> {
  return [
    model.task.select,
    model.length.select,
    model.dModel.select,
    model.sampler.select,
    model.beta.input,
    model.threads.select,
    numbers.steps.input,
    numbers.batch.input,
    numbers.lr.input,
  ];
}

/**
 * The settings the form holds now, as Train would start them (seed and eval interval kept from
 * `initial`).
 *
 * @param initial - the starting settings, for what the form does not show
 * @param model - the model fields
 * @param numbers - the optimizer fields
 * @returns the run's config
 */
export function readConfig(
  initial: TrainConfig,
  model: ModelFields,
  numbers: NumberFields,
): TrainConfig {
  return {
    ...DEFAULT_CONFIG,
    seed: initial.seed,
    evalEvery: initial.evalEvery,
    engine: initial.engine,
    task: model.task.select.value as TaskName,
    length: Number(model.length.select.value),
    dModel: Number(model.dModel.select.value),
    sampler: model.sampler.select.value as SamplerName,
    beta: Number(model.beta.input.value),
    threads: model.threads.select.value === '2' ? 2 : 1,
    steps: Math.round(Number(numbers.steps.input.value)),
    batchSize: Math.round(Number(numbers.batch.input.value)),
    lr: Number(numbers.lr.input.value),
  };
}

/**
 * Marks the samplers the chosen T is too long for (marked, not hidden).
 *
 * @param model - the model fields, whose T and sampler options are read and relabelled
 */
export function markSamplers(model: ModelFields): void {
  const T = Number(model.length.select.value);
  for (const option of Array.from(model.sampler.select.options)) {
    const name = option.value as SamplerName;
    option.textContent =
      SAMPLER_LABELS[name] +
      (T > SAMPLER_MAX_LENGTH[name] ? ` — T ≤ ${SAMPLER_MAX_LENGTH[name]}` : '');
  }
}
