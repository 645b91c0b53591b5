import { h, numberRow, rangeRow, selectRow } from '../dom.js';
import { MAX_NUMBER_CHARS, boundNumberField } from '../inputBounds.js';
import type { NumberSpec } from '../inputBounds.js';
import {
  D_MODELS,
  DEFAULT_CONFIG,
  LENGTHS,
  SAMPLER_MAX_LENGTH,
  SAMPLER_NAMES,
  configProblems,
} from '../training/trainConfig.js';
import type { SamplerName, TaskName, TrainConfig } from '../training/trainConfig.js';
import type { TrainState } from '../protocol.js';
import type { SamplerThreads } from '../training/samplerThreads.js';

export interface TrainControls {
  /** The form's settings, number fields held to their ranges (what Train would start). */
  current(): TrainConfig;
  setState(state: TrainState): void;
  setStatus(text: string): void;
  setSamplerNote(text: string): void;
  /** Offers two sampler threads only where ising-core's workers run. */
  setThreads(threads: SamplerThreads): void;
}

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

/**
 * The Steps, Batch and Learning-rate inputs, and `bound()`, which holds each to its range (a
 * script or the URL can set any value) and returns notes on what it changed. A field holding more
 * characters than any number in range is bounded as it is typed, its note passed to `onNote`.
 */
function numberFields(initial: TrainConfig, onNote: (note: string) => void) {
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
 * The Train panel's form: task, T, d_model, sampler, β and the optimizer settings, and the
 * Train / Pause buttons. `initial` may come from the URL (`?steps=100&T=8`).
 */
export function createTrainControls(
  parent: HTMLElement,
  initial: TrainConfig,
  actions: { start(config: TrainConfig): void; pause(): void; resume(): void },
): TrainControls {
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
    'Sampler threads',
    [
      { value: '1', label: '1' },
      { value: '2', label: '2 (Web Workers)' },
    ],
    String(initial.threads),
  );
  const { steps, batch, lr, bound } = numberFields(initial, (note) => {
    problem.textContent = note;
  });
  const start = h('button', { type: 'button', id: 'train-start' }, 'Train');
  const pause = h(
    'button',
    { type: 'button', id: 'train-pause', class: 'secondary', disabled: true },
    'Pause',
  );
  const problem = h('p', { class: 'problem', role: 'alert', id: 'train-problem' });
  const samplerNote = h('p', { class: 'note', id: 'sampler-note' });
  const status = h(
    'p',
    { class: 'status', id: 'train-status', 'aria-live': 'polite' },
    'Starting TensorFlow.js…',
  );
  parent.append(
    h(
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
    ),
    samplerNote,
    h('div', { class: 'buttons' }, start, pause),
    problem,
    status,
    h(
      'p',
      { class: 'note' },
      'Both models start from the same weights and see the same batches; only the attention differs. The sampler is used by the boltzmann model; softmax needs none.',
    ),
  );

  let state: TrainState = 'starting';
  const read = (): TrainConfig => ({
    ...DEFAULT_CONFIG,
    seed: initial.seed,
    evalEvery: initial.evalEvery,
    task: task.select.value as TaskName,
    length: Number(length.select.value),
    dModel: Number(dModel.select.value),
    sampler: sampler.select.value as SamplerName,
    beta: Number(beta.input.value),
    threads: threads.select.value === '2' ? 2 : 1,
    steps: Math.round(Number(steps.input.value)),
    batchSize: Math.round(Number(batch.input.value)),
    lr: Number(lr.input.value),
  });
  // What the number fields' bounds changed is said beside any problem left.
  const validate = (notes = bound()): string[] => {
    const problems = configProblems(read());
    problem.textContent = [...notes, problems.join('. ')].filter((t) => t !== '').join(' ');
    return problems;
  };
  // Options the chosen T is too long for are marked, not hidden.
  const markSamplers = (): void => {
    const T = Number(length.select.value);
    for (const option of Array.from(sampler.select.options)) {
      const name = option.value as SamplerName;
      option.textContent =
        SAMPLER_LABELS[name] +
        (T > SAMPLER_MAX_LENGTH[name] ? ` — T ≤ ${SAMPLER_MAX_LENGTH[name]}` : '');
    }
  };
  for (const input of [
    task.select,
    length.select,
    dModel.select,
    sampler.select,
    beta.input,
    threads.select,
    steps.input,
    batch.input,
    lr.input,
  ]) {
    input.addEventListener('change', () => {
      markSamplers();
      validate();
    });
  }
  markSamplers();
  validate(); // start-up values may come from the URL
  const setState = (next: TrainState): void => {
    state = next;
    pause.disabled = next !== 'training' && next !== 'paused';
    pause.textContent = next === 'paused' ? 'Resume' : 'Pause';
    start.textContent = next === 'training' || next === 'paused' ? 'Restart' : 'Train';
    status.dataset.state = next;
  };
  start.addEventListener('click', () => {
    if (validate().length > 0) return;
    setState('starting'); // until the worker reports the new run's state
    actions.start(read());
  });
  pause.addEventListener('click', () => (state === 'paused' ? actions.resume() : actions.pause()));

  return {
    current() {
      const notes = bound();
      if (notes.length > 0) validate(notes); // else the notes already shown stay
      return read();
    },
    setState,
    setStatus(text) {
      status.textContent = text;
    },
    setSamplerNote(text) {
      samplerNote.textContent = text;
    },
    setThreads(info) {
      const two = threads.select.options[1];
      if (two === undefined || info.live > 0) return;
      two.disabled = true;
      two.textContent = `2 — unavailable: ${info.reason ?? 'no sampler workers'}`;
      threads.select.value = '1';
    },
  };
}
