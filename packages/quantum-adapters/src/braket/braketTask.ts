// One Braket quantum task: created, polled to a terminal state, its results.json read from S3.
import { randomUUID } from 'node:crypto';
import type { BraketClient, CreateQuantumTaskCommandInput } from '@aws-sdk/client-braket';
import type { S3Client } from '@aws-sdk/client-s3';
import { echo } from '@boltzmann/ising-core/internal';
import type { IsingBatch, Rng, SampleSet } from '@boltzmann/ising-core';
import { batchProblemToQasm, openQasmAction } from './braketQasm.js';
import { decodeBraketResults } from './braketResults.js';
import type { BraketSamplerOptions } from './braketSamplerTypes.js';
import { classifyBraketError } from './classifyBraketError.js';
import { AdapterError, isAdapterError, malformed } from '../shared/errors.js';
import { readResultsJson } from './braketClients.js';
import type { Sdk } from './braketClients.js';
import type { PollBackoff } from '../shared/retry.js';
import { sleep, withRetry } from '../shared/retry.js';
import type { RetryPolicy } from '../shared/retry.js';

/**
 * What the tasks of a `braket` sampler share. The clients are getters, read at each call as
 * before the move, because `dispose()` replaces them.
 */
export interface BraketTaskContext {
  readonly braket: () => BraketClient;
  readonly s3: () => S3Client;
  readonly deviceArn: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly shots: number;
  readonly anneal: BraketSamplerOptions['anneal'];
  readonly maxResultBytes: number;
  readonly backoff: PollBackoff;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  readonly rng: Rng;
}

/** One SDK call with the request deadline, retried by the policy; failures come out classified. */
async function send<T>(
  ctx: BraketTaskContext,
  what: string,
  run: (signal: AbortSignal) => Promise<T>,
  runSignal: AbortSignal,
): Promise<T> {
  const { timeoutMs, policy, rng } = ctx;
  return withRetry(
    async () => {
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        return await run(AbortSignal.any([timeout, runSignal]));
      } catch (error) {
        if (runSignal.aborted && isAdapterError(runSignal.reason)) throw runSignal.reason;
        if (timeout.aborted)
          throw new AdapterError(
            'ADAPTER_TIMEOUT',
            `${what} got no answer within ${timeoutMs} ms`,
            { reason: 'timeout', retryable: true, cause: error },
          );
        throw classifyBraketError(error, what);
      }
    },
    policy,
    { signal: runSignal, rng },
  );
}

/**
 * Runs batch problem `q` as one quantum task: its ARN goes to `arns[q]` (and to `pending` until
 * the task ends), its results key to `keys[q]`.
 */
export async function runBraketTask(
  ctx: BraketTaskContext,
  sdk: Sdk,
  batch: IsingBatch,
  q: number,
  signal: AbortSignal,
  arns: string[],
  keys: string[],
  pending: Set<string>,
): Promise<SampleSet> {
  const { deviceArn, bucket, prefix, shots, maxResultBytes, backoff } = ctx;
  const { CreateQuantumTaskCommand, GetQuantumTaskCommand } = sdk.braket;
  const { GetObjectCommand } = sdk.s3;
  const input: CreateQuantumTaskCommandInput = {
    action: openQasmAction(await batchProblemToQasm(batch, q, ctx.anneal)),
    clientToken: randomUUID(),
    deviceArn,
    outputS3Bucket: bucket,
    outputS3KeyPrefix: prefix,
    shots,
  };
  const created = await send(
    ctx,
    'CreateQuantumTask',
    (s) => ctx.braket().send(new CreateQuantumTaskCommand(input), { abortSignal: s }),
    signal,
  );
  const arn = created.quantumTaskArn;
  if (typeof arn !== 'string' || arn === '')
    throw malformed('CreateQuantumTask answered without a quantumTaskArn');
  arns[q] = arn;
  pending.add(arn);
  for (let k = 0; ; k++) {
    const task = await send(
      ctx,
      `GetQuantumTask ${arn}`,
      (s) =>
        ctx.braket().send(new GetQuantumTaskCommand({ quantumTaskArn: arn }), { abortSignal: s }),
      signal,
    );
    if (task.status === 'COMPLETED') {
      pending.delete(arn);
      if (typeof task.outputS3Directory !== 'string')
        throw malformed(`GetQuantumTask ${arn} is COMPLETED without outputS3Directory`);
      const key = `${task.outputS3Directory}/results.json`;
      keys[q] = key;
      const where = `s3://${task.outputS3Bucket ?? bucket}/${key}`;
      // The body is read inside send(), so the request deadline covers it too.
      const parsed = await send(
        ctx,
        `GetObject ${where}`,
        async (s) =>
          readResultsJson(
            await ctx
              .s3()
              .send(new GetObjectCommand({ Bucket: task.outputS3Bucket ?? bucket, Key: key }), {
                abortSignal: s,
              }),
            maxResultBytes,
            where,
          ),
        signal,
      );
      return decodeBraketResults(parsed, batch.spins[q]!);
    }
    if (task.status === 'FAILED') {
      pending.delete(arn);
      throw new AdapterError(
        'ADAPTER_PROBLEM_FAILED',
        `quantum task ${arn} FAILED: ${echo(task.failureReason ?? 'no failureReason', 300)}`,
        { reason: 'rejected', retryable: false },
      );
    }
    if (task.status === 'CANCELLED' || task.status === 'CANCELLING') {
      pending.delete(arn);
      throw new AdapterError(
        'ADAPTER_PROBLEM_CANCELLED',
        `quantum task ${arn} was ${task.status}`,
        { reason: 'rejected', retryable: false },
      );
    }
    await sleep(Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** k), signal);
  }
}
