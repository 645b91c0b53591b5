import { h } from '../dom.js';
import type { TrainState } from '../protocol.js';
import { configProblems } from '../training/trainConfig.js';
import type { TrainConfig } from '../training/trainConfig.js';
import type { SamplerThreads } from '../training/samplerThreads.js';
import {
  fieldGrid,
  fieldInputs,
  markSamplers,
  modelFields,
  numberFields,
  readConfig,
} from './trainFields.js';

export interface TrainControls {
  /** The form's settings, number fields held to their ranges (what Train would start). */
  current(): TrainConfig;
  setState(state: TrainState): void;
  setStatus(text: string): void;
  setSamplerNote(text: string): void;
  /** Offers two sampler threads only where ising-core's workers run. */
  setThreads(threads: SamplerThreads): void;
}

/** The Train and Pause buttons and the lines under them: sampler note, problem, status. */
function formOutputs() {
  return {
    start: h('button', { type: 'button', id: 'train-start' }, 'Train'),
    pause: h(
      'button',
      { type: 'button', id: 'train-pause', class: 'secondary', disabled: true },
      'Pause',
    ),
    problem: h('p', { class: 'problem', role: 'alert', id: 'train-problem' }),
    samplerNote: h('p', { class: 'note', id: 'sampler-note' }),
    status: h(
      'p',
      { class: 'status', id: 'train-status', 'aria-live': 'polite' },
      'Starting TensorFlow.js…',
    ),
  };
}

/** Greys out the second thread, saying why, where ising-core's sampler workers do not run. */
function offerThreads(threads: HTMLSelectElement, info: SamplerThreads): void {
  const two = threads.options[1];
  if (two === undefined || info.live > 0) return;
  two.disabled = true;
  two.textContent = `2 — unavailable: ${info.reason ?? 'no sampler workers'}`;
  threads.value = '1';
}

/**
 * The Train panel's form: task, T, d_model, sampler, β and the optimizer settings, and the
 * Train / Pause buttons. `initial` may come from the URL (`?steps=100&T=8`).
 *
 * @param parent - the panel's form column
 * @param initial - the starting settings
 * @param actions - what Train, Pause and Resume do
 * @returns the form's settings and setters for its state, status, sampler note and threads
 */
export function createTrainControls(
  parent: HTMLElement,
  initial: TrainConfig,
  actions: { start(config: TrainConfig): void; pause(): void; resume(): void },
): TrainControls {
  const model = modelFields(initial);
  const numbers = numberFields(initial, (note) => {
    problem.textContent = note;
  });
  const { start, pause, problem, samplerNote, status } = formOutputs();
  parent.append(
    fieldGrid(model, numbers),
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
  const read = (): TrainConfig => readConfig(initial, model, numbers);
  // What the number fields' bounds changed is said beside any problem left.
  const validate = (notes = numbers.bound()): string[] => {
    const problems = configProblems(read());
    problem.textContent = [...notes, problems.join('. ')].filter((t) => t !== '').join(' ');
    return problems;
  };
  for (const input of fieldInputs(model, numbers)) {
    input.addEventListener('change', () => {
      markSamplers(model);
      validate();
    });
  }
  markSamplers(model);
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
      const notes = numbers.bound();
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
      offerThreads(model.threads.select, info);
    },
  };
}
