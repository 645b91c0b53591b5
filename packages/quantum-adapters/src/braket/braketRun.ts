// One `braket` sample() call (braketSampler.ts): its quantum tasks run a few at a time and
// cancelled on the first failure, or written as a dry run.
import { randomUUID } from 'node:crypto';
import type { IsingBatch, SampleSet } from '@boltzmann/ising-core';
import type { BraketClient } from '@aws-sdk/client-braket';
import { batchProblemToQasm, openQasmAction } from './braketQasm.js';
import type { BraketSamplerOptions } from './braketSamplerTypes.js';
import type { DryRunCall } from '../shared/dryRun.js';
import type { Sdk } from './braketClients.js';
import { runBraketTask } from './braketTask.js';
import type { BraketTaskContext } from './braketTask.js';
import { runDeadline } from '../shared/retry.js';
import { braketCostEstimate } from './braketCost.js';

/**
 * Writes each problem's OpenQASM source and the CreateQuantumTask request that would carry it,
 * and what the call would cost (`estimate.json`, {@link braketCostEstimate}).
 */
export async function writeBraketDryRun(
  out: DryRunCall,
  batch: IsingBatch,
  anneal: BraketSamplerOptions['anneal'],
  task: Pick<BraketTaskContext, 'deviceArn' | 'bucket' | 'prefix' | 'shots'>,
): Promise<void> {
  for (let q = 0; q < batch.size; q++) {
    const id = String(q).padStart(4, '0');
    const source = await batchProblemToQasm(batch, q, anneal);
    out.text(`problem-${id}.qasm`, source);
    out.json(`create-quantum-task-${id}.json`, {
      action: openQasmAction(source),
      clientToken: '<a fresh UUID per request>',
      deviceArn: task.deviceArn,
      outputS3Bucket: task.bucket,
      outputS3KeyPrefix: task.prefix,
      shots: task.shots,
    });
  }
  out.json('estimate.json', braketCostEstimate(task, batch.size));
}

/** The tasks of one call: each problem's sample set, and the ARNs and result keys in start order. */
export interface BraketTasksRun {
  readonly sets: SampleSet[];
  readonly arns: string[];
  readonly keys: string[];
}

/**
 * Runs every problem of `batch` as a quantum task, `concurrency` at a time, within `deadlineMs`.
 * The first failure stops every worker (their waits and requests abort with it), so a failed task
 * does not leave the others polling until the deadline; the tasks still pending are then cancelled
 * (best effort) and the failure rethrown.
 */
export async function runBraketTasks(
  task: BraketTaskContext,
  sdk: Sdk,
  braket: BraketClient,
  batch: IsingBatch,
  limits: { readonly concurrency: number; readonly deadlineMs: number },
): Promise<BraketTasksRun> {
  const arns: string[] = [];
  const keys: string[] = [];
  const pending = new Set<string>();
  const sets: SampleSet[] = new Array(batch.size);
  const stop = new AbortController();
  const deadline = runDeadline(limits.deadlineMs, 'braket sample() call', stop.signal);
  const { signal } = deadline;
  deadline.signal.addEventListener('abort', () => stop.abort(deadline.signal.reason), {
    once: true,
  });
  let next = 0;
  try {
    const worker = async (): Promise<void> => {
      while (next < batch.size && !stop.signal.aborted) {
        const q = next++;
        try {
          sets[q] = await runBraketTask(task, sdk, batch, q, signal, arns, keys, pending);
        } catch (error) {
          if (!stop.signal.aborted) stop.abort(error);
          throw error;
        }
      }
    };
    await Promise.allSettled(
      Array.from({ length: Math.min(limits.concurrency, batch.size) }, worker),
    );
    if (stop.signal.aborted) throw stop.signal.reason;
    return { sets, arns, keys };
  } catch (error) {
    await Promise.allSettled(
      [...pending].map((arn) =>
        braket.send(
          new sdk.braket.CancelQuantumTaskCommand({
            quantumTaskArn: arn,
            clientToken: randomUUID(),
          }),
          { abortSignal: AbortSignal.timeout(5_000) },
        ),
      ),
    );
    throw error;
  } finally {
    deadline.clear();
  }
}
