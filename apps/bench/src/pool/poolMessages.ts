import type { RunConfig, RunProgress, RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/** Parent → worker. */
export type ToWorker =
  | { readonly type: 'run'; readonly config: RunConfig; readonly settings: RunSettings }
  | { readonly type: 'stop' }
  | { readonly type: 'exit' };

/** Worker → parent. */
export type FromWorker =
  | { readonly type: 'ready' }
  /** The run's checkpoint was checked and its model built: it trains from `startStep`. */
  | { readonly type: 'start'; readonly startStep: number; readonly engine?: string }
  | { readonly type: 'progress'; readonly progress: RunProgress }
  | { readonly type: 'warn'; readonly message: string }
  | { readonly type: 'done'; readonly id: string; readonly record: RunRecord }
  | { readonly type: 'stopped'; readonly id: string }
  | {
      readonly type: 'failed';
      readonly id: string | null;
      readonly code: string;
      readonly message: string;
    };
