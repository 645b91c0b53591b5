/*
 * `bench sample` as the user runs it: the cheap checks here (prompt, model file, the trust rule
 * for its sampler options), then the model and its sampler in a child process (sampleProcess.ts),
 * whose characters stream back over IPC. SIGTERM/SIGINT kill the child at once: a sampler's call
 * is synchronous and may run for minutes, and a model file may make its process do anything the
 * bounds allow; the parent always answers within a second.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { splitSecretOptions, redactSecrets } from '@boltzmann/ising-core/internal';
import { BenchError, formatError } from '../benchError.js';
import type { FromSampler, ToSampler } from './sampleMessages.js';
import { shakespeareCorpus } from '../experiments/taskData.js';
import { childProcessEntry, trainingExecArgv } from '../training/trainingProcess.js';
import { EXIT } from '../io.js';
import type { MainIo } from '../io.js';
import { assertModelOptionsAreData, encodePrompt, readModelFile } from './generate.js';
import type { SampleCommand } from './sampleCommand.js';

/**
 * Runs `bench sample`: checks the prompt and the model file, then streams the prompt (unless
 * `echo` is false) and the generated text to `io.write` (stdout), and nothing else; the backend
 * line goes to `io.err`. The prompt comes with the first generated character, so a model or
 * sampler that fails leaves stdout empty.
 *
 * @param command from `parseSampleArgs`.
 * @param io output sinks and stop signal.
 * @returns the exit code (0 done, 1 failed, 130 interrupted).
 * @throws BENCH_MODEL_NOT_FOUND, BENCH_BAD_MODEL, BENCH_FORBIDDEN_OPTION, BENCH_BAD_PROMPT,
 *   DATASET_* (the caller prints them); the child's own errors are printed here, coded.
 */
export async function runSample(command: SampleCommand, io: MainIo): Promise<number> {
  const { vocab } = await shakespeareCorpus(command.dataPath);
  encodePrompt(command.prompt, vocab);
  const file = readModelFile(command.modelPath);
  if (command.samplerOptions === undefined) assertModelOptionsAreData(command.modelPath, file.json);
  if (io.signal?.aborted === true) return interrupted(io);
  const secrets = splitSecretOptions(command.samplerOptions ?? {}).secrets;
  const write = echoed(io.write ?? ((s: string) => void process.stdout.write(s)), command);
  const child = fork(childProcessEntry('inference/sampleProcess'), [], {
    execArgv: trainingExecArgv(),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const outcome = await follow(child, command, write, io, secrets);
  if (outcome === 'interrupted') return interrupted(io);
  if (outcome !== 'done') {
    io.err(redactSecrets(outcome, secrets));
    return EXIT.failed;
  }
  // End the terminal line on stderr, so stdout holds exactly the generated characters.
  io.err('');
  return EXIT.ok;
}

/** `write`, which writes the prompt before its first text when the command echoes it. */
function echoed(write: (text: string) => void, command: SampleCommand): (text: string) => void {
  let pending = command.echo !== false;
  return (text) => {
    if (pending) write(command.prompt);
    pending = false;
    write(text);
  };
}

function interrupted(io: MainIo): number {
  io.err('\nerror [BENCH_INTERRUPTED]: stopped before the requested number of characters');
  return EXIT.interrupted;
}

/** Relays the child's messages until it is done, fails, dies or is stopped. */
function follow(
  child: ChildProcess,
  command: SampleCommand,
  write: (text: string) => void,
  io: MainIo,
  secrets: Readonly<Record<string, unknown>>,
): Promise<'done' | 'interrupted' | string> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (how: 'done' | 'interrupted' | string): void => {
      if (settled) return;
      settled = true;
      io.signal?.removeEventListener('abort', stop);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(how);
    };
    const stop = (): void => settle('interrupted');
    io.signal?.addEventListener('abort', stop, { once: true });
    child.on('message', (msg: FromSampler) => {
      if (msg.type === 'text') write(msg.text);
      else if (msg.type === 'log') io.err(redactSecrets(msg.line, secrets));
      else if (msg.type === 'done') settle('done');
      else settle(msg.line);
    });
    child.on('error', (error) =>
      settle(`error [BENCH_RUN_FAILED]: the sampling process could not start (${error.message})`),
    );
    // 'close', not 'exit': every message the child sent has been delivered by then.
    child.on('close', (code, signal) =>
      settle(
        formatError(
          new BenchError(
            'BENCH_RUN_FAILED',
            `the sampling process died (${signal ?? `exit code ${code}`}) before it finished (out of memory?)`,
          ),
        ),
      ),
    );
    child.send({ type: 'sample', command } satisfies ToSampler);
  });
}
