import './styles.css';
import type { TrainEvent, TrainRequest, TrainState } from './protocol.js';
import { DEFAULT_CONFIG, PLAYGROUND_BANDWIDTH, SAMPLER_NAMES } from './training/trainConfig.js';
import type { SamplerName, TrainConfig } from './training/trainConfig.js';
import type { SamplerThreads } from './training/samplerThreads.js';
import { createAnnealView } from './views/annealView.js';
import { createAttentionView } from './views/attentionView.js';
import { createCouplingsView } from './views/couplingsView.js';
import { createModelFileControls } from './views/modelFileControls.js';
import { createTrainControls } from './views/trainControls.js';
import { createTrainResults } from './views/trainResults.js';

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/** Start settings, overridable from the URL: `?task=shakespeare&T=12&d=32&sampler=tap&beta=1.5&steps=500&batch=16&lr=0.005&autostart=1`. */
function configFromUrl(params: URLSearchParams): TrainConfig {
  const num = (key: string, fallback: number): number => {
    const raw = params.get(key);
    const value = raw === null ? Number.NaN : Number(raw);
    return Number.isFinite(value) ? value : fallback;
  };
  const sampler = params.get('sampler');
  return {
    ...DEFAULT_CONFIG,
    task: params.get('task') === 'shakespeare' ? 'shakespeare' : 'brackets',
    length: num('T', DEFAULT_CONFIG.length),
    dModel: num('d', DEFAULT_CONFIG.dModel),
    sampler: SAMPLER_NAMES.includes(sampler as SamplerName)
      ? (sampler as SamplerName)
      : DEFAULT_CONFIG.sampler,
    beta: num('beta', DEFAULT_CONFIG.beta),
    steps: num('steps', DEFAULT_CONFIG.steps),
    batchSize: num('batch', DEFAULT_CONFIG.batchSize),
    lr: num('lr', DEFAULT_CONFIG.lr),
    evalEvery: num('evalEvery', DEFAULT_CONFIG.evalEvery),
    threads: params.get('threads') === '2' ? 2 : 1,
    engine: params.get('engine') === 'tfjs' ? 'tfjs' : 'wasm',
  };
}

const params = new URLSearchParams(location.search);
const initial = configFromUrl(params);
const worker = new Worker(new URL('./trainWorker.ts', import.meta.url), { type: 'module' });
const send = (request: TrainRequest): void => worker.postMessage(request);

let runId = 0;
let config: TrainConfig | undefined;
let backend = '';
let threads: SamplerThreads | undefined;
let lastStep = 0;
let rate = 0;
let failure = '';

/** Train presses so far: a run's late `done` must not overwrite the state of one started since. */
let starts = 0;
const controls = createTrainControls(byId('train-controls'), initial, {
  start: (next) => {
    starts++;
    send({ type: 'start', config: next });
  },
  pause: () => send({ type: 'pause' }),
  resume: () => send({ type: 'resume' }),
});
const results = createTrainResults(byId('train-results'));
const couplings = createCouplingsView(byId('couplings-view'));
const attention = createAttentionView(byId('attention-view'), (text) =>
  send({ type: 'attention', text }),
);
createAnnealView(byId('anneal-view'));

const STATE_TEXT: Record<TrainState, string> = {
  starting: 'starting',
  training: 'training',
  paused: 'paused',
  done: 'done',
  failed: 'failed',
};
let state: TrainState = 'starting';
const status = (): void => {
  if (state === 'failed' && failure) {
    controls.setStatus(`Training stopped: ${failure}`);
    return;
  }
  const total = config?.steps ?? 0;
  const speed = state === 'training' && rate > 0 ? ` · ${rate.toFixed(1)} steps/s` : '';
  const engine =
    config?.engine === 'tfjs' ? 'trained on TensorFlow.js' : 'trained on the wasm engine';
  controls.setStatus(
    config
      ? `${STATE_TEXT[state]}: step ${lastStep} of ${total}${speed} · ${engine} · TensorFlow.js on ${backend || '…'}${samplerThreadsText()}`
      : `TensorFlow.js on ${backend || '…'}. Press Train.`,
  );
  // The last speed of the run, for whoever reads the page (the end-to-end test prints it).
  if (rate > 0) byId('train-status').dataset.rate = rate.toFixed(2);
};

/** How many threads the engine and the sampler run on now, and why only one when two were asked for. */
function samplerThreadsText(): string {
  if (config === undefined || threads === undefined) return '';
  if (config.threads === 2) return ' · engine and sampler on 2 threads';
  return threads.reason === undefined
    ? ''
    : ` · engine and sampler on 1 thread (${threads.reason})`;
}

const modelFiles = createModelFileControls(byId('model-files'), send);

worker.addEventListener('error', (event) => {
  controls.setStatus(`The training worker failed to start: ${event.message || 'unknown error'}`);
  controls.setState('failed');
});
worker.addEventListener('message', (event: MessageEvent<TrainEvent>) => {
  const message = event.data;
  if (message.type === 'backend') {
    backend = message.backend;
    status();
    return;
  }
  if (message.type === 'models') {
    modelFiles.showSaved(message.files);
    return;
  }
  if (message.type === 'modelFile') {
    modelFiles.showOpened(message.text, message.ok);
    return;
  }
  if (message.type === 'threads') {
    threads = message.threads;
    controls.setThreads(threads);
    status();
    return;
  }
  if (message.type === 'started') {
    runId = message.runId;
    config = message.config;
    lastStep = 0;
    rate = 0;
    failure = '';
    results.reset(message.accuracyLabel);
    controls.setSamplerNote(`boltzmann sampler: ${message.samplerDescription}.`);
    attention.reset(
      message.config.task,
      message.exampleText,
      message.alphabet,
      message.config.length,
    );
    status();
    return;
  }
  if (message.runId < runId) return; // an earlier run's last words
  switch (message.type) {
    case 'state': {
      const next = message.state;
      const show = (): void => {
        state = next;
        controls.setState(next);
        status();
      };
      // The stats table redraws on the next frame, which a busy machine delays: say `done` only
      // once the last step's figures are in it, so whoever reads the table on `done` reads them.
      const pressed = starts;
      if (next === 'done')
        results.afterDraw(() => {
          if (pressed === starts) show();
        });
      else show();
      break;
    }
    case 'step':
      lastStep = message.step;
      rate = message.stepsPerSecond;
      results.addStep(message.step, message.losses);
      status();
      break;
    case 'eval':
      results.addEval(message.step, message.results);
      break;
    case 'couplings':
      couplings.update(
        message.step,
        message.snapshot,
        config?.sampler === 'transfer-matrix' ? PLAYGROUND_BANDWIDTH : undefined,
      );
      break;
    case 'attention':
      attention.show(message.step, message.text, message.chars, message.maps);
      break;
    case 'attentionError':
      attention.showProblem(message.text, message.reason);
      break;
    case 'error':
      failure = message.message;
      status();
      break;
  }
});

// The form's values, held to their ranges (a URL can ask for anything), not the URL's own.
if (params.get('autostart') === '1') send({ type: 'start', config: controls.current() });
