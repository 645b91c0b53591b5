/*
 * Child-process entry of `bench sample`, forked by runSample (its build, dist/sampleProcess.js, or
 * this file with the tsx loader). The model and its sampler run here, so the parent stays free to
 * answer SIGTERM at once (a sampler's call is synchronous and may be long) and survives whatever a
 * model file makes this process do. Protocol: internal/sampleMessages.ts.
 */
import { initBackend } from '@boltzmann/attention';
import { formatError } from '../benchError.js';
import type { FromSampler, ToSampler } from './sampleMessages.js';
import { shakespeareCorpus } from '../experiments/taskData.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { assertKnownName } from '../suggestName.js';
import { watchParent } from '../training/parentWatchdog.js';
import { encodePrompt, generate, loadSampleModel, readModelFile } from './generate.js';

const send = (msg: FromSampler): Promise<void> =>
  new Promise((resolve) => {
    if (!process.connected || !process.send) resolve();
    else process.send(msg, () => resolve());
  });

// The parent went away (killed, or it stopped us): nothing left to write to, nothing to save. A
// sampler's call may hold this thread for minutes: the watchdog then kills the process at once.
watchParent(() => process.exit(1), { graceMs: 0 });

process.once('message', (msg: ToSampler) => {
  void run(msg)
    .then(
      () => send({ type: 'done' }),
      (error: unknown) => send({ type: 'failed', line: formatError(error) }),
    )
    .finally(() => process.exit(0));
});

async function run({ command }: ToSampler): Promise<void> {
  const { vocab } = await shakespeareCorpus(command.dataPath);
  const prompt = encodePrompt(command.prompt, vocab);
  const file = readModelFile(command.modelPath);
  const registry = await createBenchRegistry(command.plugins);
  if (command.sampler !== undefined)
    assertKnownName(
      '--sampler',
      command.sampler,
      registry.list().map((p) => p.name),
      'registered samplers',
    );
  // The backend's line is shown once the model loaded: a bad file's error comes first, alone.
  const lines: string[] = [];
  await initBackend('wasm', { log: (line) => void lines.push(line) });
  const model = loadSampleModel(
    command.modelPath,
    vocab,
    registry,
    file,
    { sampler: command.sampler, samplerOptions: command.samplerOptions },
    command.samplerTimeoutMs,
    (line) => void lines.push(line),
  );
  for (const line of lines) void send({ type: 'log', line });
  try {
    await generate(model, vocab, prompt, command, (text) => void send({ type: 'text', text }));
  } finally {
    model.dispose();
  }
}
