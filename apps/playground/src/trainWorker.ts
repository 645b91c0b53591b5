/**
 * The training worker: builds the softmax and boltzmann models, trains them step by step on the
 * same batches and posts progress (losses, held-out evaluations, J, attention maps) to the page.
 * Every model operation runs through one queue, so an attention request between two steps never
 * overlaps a step, and the loop yields to the event loop after every step to read messages.
 */
import excerptUrl from './data/tinyShakespeare.txt?url';
import { MAX_ATTENTION_CHARS, boundAttentionText } from './inputBounds.js';
import type { TrainEvent, TrainRequest } from './protocol.js';
import { errorMessage } from './protocol.js';
import { createBracketTask, createShakespeareTask } from './training/taskData.js';
import type { TrainConfig } from './training/trainConfig.js';
import { configProblems } from './training/trainConfig.js';
import { createTrainingSession } from './training/trainingSession.js';
import { describeModelFile } from './training/modelFiles.js';
import type { TrainingSession } from './training/trainingSession.js';
import { startSamplerThreads } from './training/samplerThreads.js';
import { initBrowserBackend } from './training/wasmBackend.js';
import { workerScope } from './workerScope.js';

const scope = workerScope<TrainRequest, TrainEvent>();
const post = (event: TrainEvent, transfer: Transferable[] = []): void =>
  scope.postMessage(event, transfer);

/** Snapshots of J and the attention maps at most this often (ms), and at the last step. */
const SNAPSHOT_INTERVAL = 250;

let runId = 0;
let session: TrainingSession | undefined;
let paused = false;
let wake: (() => void) | undefined;
let attentionText: string | undefined;
let queue: Promise<unknown> = Promise.resolve();
let excerpt: Promise<string> | undefined;

const backend = initBrowserBackend(() => undefined).then((name) => {
  post({ type: 'backend', backend: name });
  return name;
});
// Before any training step: a sampler worker cannot start while a synchronous step blocks.
const threads = startSamplerThreads().then((info) => {
  post({ type: 'threads', threads: info });
  return info;
});

function exclusive<T>(work: () => T | Promise<T>): Promise<T> {
  const next = queue.then(work);
  queue = next.catch(() => undefined);
  return next;
}

/** Resolves on a fresh task of the event loop (messages first), without setTimeout's clamping. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

function loadExcerpt(): Promise<string> {
  excerpt ??= fetch(excerptUrl).then(async (response) => {
    if (!response.ok)
      throw new Error(`the Tiny Shakespeare excerpt could not be loaded (HTTP ${response.status})`);
    return response.text();
  });
  excerpt.catch(() => (excerpt = undefined));
  return excerpt;
}

async function refreshAttention(id: number, s: TrainingSession): Promise<void> {
  const text = attentionText ?? s.task.exampleText;
  const encoded = s.task.encode(text);
  if (!encoded.ok) {
    post({ type: 'attentionError', runId: id, text, reason: encoded.reason });
    return;
  }
  const maps = await exclusive(() => (id === runId ? s.attention(encoded.tokens) : undefined));
  if (maps === undefined || id !== runId) return;
  post({ type: 'attention', runId: id, step: s.stepCount, text, chars: encoded.chars, maps }, [
    maps.softmax.buffer,
    maps.boltzmann.buffer,
  ]);
}

async function snapshot(id: number, s: TrainingSession): Promise<void> {
  const couplings = await exclusive(() => (id === runId ? s.couplings() : undefined));
  if (couplings === undefined || id !== runId) return;
  post({ type: 'couplings', runId: id, step: s.stepCount, snapshot: couplings });
  await refreshAttention(id, s);
}

async function evaluateNow(id: number, s: TrainingSession): Promise<void> {
  const results = await exclusive(() => (id === runId ? s.evaluate() : undefined));
  if (results !== undefined && id === runId)
    post({ type: 'eval', runId: id, step: s.stepCount, results });
}

async function train(id: number, s: TrainingSession): Promise<void> {
  const total = s.config.steps;
  await evaluateNow(id, s);
  await snapshot(id, s);
  let lastSnapshot = performance.now();
  let rate = 0;
  let last = performance.now();
  while (id === runId && s.stepCount < total) {
    if (paused) {
      post({ type: 'state', runId: id, state: 'paused' });
      await new Promise<void>((resolve) => (wake = resolve));
      if (id !== runId) return;
      post({ type: 'state', runId: id, state: 'training' });
      last = performance.now();
      continue;
    }
    const losses = await exclusive(() => (id === runId ? s.step() : undefined));
    if (losses === undefined || id !== runId) return;
    const now = performance.now();
    const instant = 1000 / Math.max(1e-3, now - last);
    rate = rate === 0 ? instant : 0.9 * rate + 0.1 * instant;
    last = now;
    const step = s.stepCount;
    post({ type: 'step', runId: id, step, losses, stepsPerSecond: rate });
    if (step % s.config.evalEvery === 0 || step === total) await evaluateNow(id, s);
    if (now - lastSnapshot >= SNAPSHOT_INTERVAL || step === total) {
      await snapshot(id, s);
      lastSnapshot = performance.now();
    }
    await nextTask();
  }
  if (id === runId) post({ type: 'state', runId: id, state: 'done' });
}

async function start(config: TrainConfig): Promise<void> {
  const id = ++runId;
  paused = false;
  wake?.();
  post({ type: 'state', runId: id, state: 'starting' });
  const previous = session;
  session = undefined;
  if (previous?.config.task !== config.task) attentionText = undefined; // a bracket string is no Shakespeare
  await exclusive(() => previous?.dispose());
  try {
    const problems = configProblems(config);
    if (problems.length > 0) throw new Error(problems.join('; '));
    await backend;
    // Two sampler threads only where the workers run (else ising-core would warn and use one).
    if (config.threads === 2 && (await threads).live === 0) config = { ...config, threads: 1 };
    const task =
      config.task === 'brackets'
        ? createBracketTask(config.length, config.seed)
        : createShakespeareTask(await loadExcerpt(), config.length, config.seed);
    if (id !== runId) return;
    const s = createTrainingSession(config, task);
    session = s;
    post({
      type: 'started',
      runId: id,
      config,
      samplerDescription: s.samplerDescription,
      accuracyLabel: task.accuracyLabel,
      exampleText: task.exampleText,
      alphabet: task.alphabet,
    });
    post({ type: 'state', runId: id, state: 'training' });
    await train(id, s);
  } catch (error) {
    if (id !== runId) return;
    post({ type: 'error', runId: id, message: errorMessage(error) });
    post({ type: 'state', runId: id, state: 'failed' });
  }
}

/** Loads a model file from the page (in turn with the training) and says what it holds. */
async function openModel(name: string, bytes: Uint8Array): Promise<void> {
  try {
    await backend;
    const text = await exclusive(() => describeModelFile(name, bytes));
    post({ type: 'modelFile', text, ok: true });
  } catch (error) {
    post({ type: 'modelFile', text: `${name}: ${errorMessage(error)}`, ok: false });
  }
}

scope.addEventListener('message', (event) => {
  const request = event.data;
  switch (request.type) {
    case 'start':
      void start(request.config);
      break;
    case 'pause':
      paused = true;
      break;
    case 'resume':
      paused = false;
      wake?.();
      wake = undefined;
      break;
    case 'saveModels':
      void exclusive(() => session?.modelFiles() ?? null).then((files) =>
        post({ type: 'models', files }, files ? Object.values(files).map((f) => f.buffer) : []),
      );
      break;
    case 'openModel':
      void openModel(String(request.name), request.bytes);
      break;
    case 'attention':
      // The page cuts the string to T; this keeps a longer one from being held or sent back whole.
      attentionText = boundAttentionText(String(request.text), MAX_ATTENTION_CHARS).text;
      if (session) void refreshAttention(runId, session);
      break;
  }
});
