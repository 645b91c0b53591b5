// The shapes of a queued grid, a leaf the queue executor and its follow both read.
import type { Queue } from 'bullmq';
import type { GridOptions } from '../grid/types.js';
import type { QueueSpec } from './queueUrl.js';
import type { QueuedRun, QueuedSettings, connectedWorkers } from './queueJobs.js';

/** Options of `queueExecutor`: those of every grid plus the queue (a dry run plans locally). */
export interface QueueGridOptions extends Omit<GridOptions, 'dryRun'> {
  readonly queue: QueueSpec;
  /** Enqueue and return at once; `bench collect` writes the results later. */
  readonly detach?: boolean;
  /** `bench collect`: enqueue nothing, write what has finished, wait for nothing. */
  readonly collectOnly?: boolean;
  /** Milliseconds between two looks at the queue while following the grid. */
  readonly pollMs?: number;
  /** Remove each finished job from Redis once its record is in the results folder. */
  readonly removeCollected?: boolean;
}
/** What the queue executor learns when it enqueues a grid, for following it. */
export interface EnqueuedGrid {
  readonly queue: Queue;
  readonly runs: readonly QueuedRun[];
  /** Runs without a record here. */
  readonly notDone: readonly QueuedRun[];
  readonly settings: QueuedSettings;
  readonly connected: Awaited<ReturnType<typeof connectedWorkers>>;
  /** Jobs this command enqueued, and those the queue already had. */
  readonly added: number;
  readonly existing: number;
}
