import type { SampleCommand } from './sampleCommand.js';

/** Parent → sampling process: the one command it runs, then it exits. */
export interface ToSampler {
  readonly type: 'sample';
  readonly command: SampleCommand;
}

/** Sampling process → parent. */
export type FromSampler =
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'done' }
  /** The error as the bench prints it: `error [CODE]: message`. */
  | { readonly type: 'failed'; readonly line: string };
