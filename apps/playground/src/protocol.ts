/** Messages between the page and its two workers (structured-clone friendly: typed arrays, plain objects). */
import type { AnnealResult, AnnealSettings } from './anneal/annealModel.js';
import type { SamplerThreads } from './training/samplerThreads.js';
import type { CouplingsSnapshot, EvalResult } from './training/trainingSession.js';
import type { TrainConfig, Variant } from './training/trainConfig.js';

export type TrainRequest =
  | { readonly type: 'start'; readonly config: TrainConfig }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' }
  | { readonly type: 'attention'; readonly text: string }
  /** The current run's models as `.safetensors` files (answered with `models`). */
  | { readonly type: 'saveModels' }
  /** A model file from disk, safetensors or JSON (answered with `modelFile`). */
  | { readonly type: 'openModel'; readonly name: string; readonly bytes: Uint8Array };

export type TrainState = 'starting' | 'training' | 'paused' | 'done' | 'failed';

export type TrainEvent =
  | { readonly type: 'backend'; readonly backend: string }
  | { readonly type: 'threads'; readonly threads: SamplerThreads }
  | {
      readonly type: 'started';
      readonly runId: number;
      readonly config: TrainConfig;
      readonly samplerDescription: string;
      readonly accuracyLabel: string;
      readonly exampleText: string;
      readonly alphabet: string;
    }
  | { readonly type: 'state'; readonly runId: number; readonly state: TrainState }
  | {
      readonly type: 'step';
      readonly runId: number;
      readonly step: number;
      readonly losses: Record<Variant, number>;
      readonly stepsPerSecond: number;
    }
  | {
      readonly type: 'eval';
      readonly runId: number;
      readonly step: number;
      readonly results: Record<Variant, EvalResult>;
    }
  | {
      readonly type: 'couplings';
      readonly runId: number;
      readonly step: number;
      readonly snapshot: CouplingsSnapshot;
    }
  | {
      readonly type: 'attention';
      readonly runId: number;
      readonly step: number;
      readonly text: string;
      readonly chars: readonly string[];
      readonly maps: Record<Variant, Float32Array>;
    }
  | {
      readonly type: 'attentionError';
      readonly runId: number;
      readonly text: string;
      readonly reason: string;
    }
  | { readonly type: 'error'; readonly runId: number; readonly message: string }
  | { readonly type: 'models'; readonly files: Readonly<Record<Variant, Uint8Array>> | null }
  /** What an opened model file holds, or why it cannot be loaded. */
  | { readonly type: 'modelFile'; readonly text: string; readonly ok: boolean };

export type AnnealRequest = {
  readonly type: 'compute';
  readonly id: number;
  readonly settings: AnnealSettings;
};

export type AnnealEvent =
  | {
      readonly type: 'result';
      readonly id: number;
      readonly settings: AnnealSettings;
      readonly result: AnnealResult;
    }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

/** The one message a worker's error handler needs from any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
