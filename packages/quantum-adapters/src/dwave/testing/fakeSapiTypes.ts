// The fake SAPI server's state and scripting surface (fakeSapiServer.ts, fakeSapiRoutes.ts).
import type { IncomingMessage } from 'node:http';
import type { ScriptedFailure } from '../../shared/testing/scriptedFailure.js';

/** A submitted problem of the fake: PENDING until `readyAt`, then its `outcome`. */
export interface FakeProblem {
  id: string;
  status: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  readyAt: number;
  answer?: unknown;
  error?: string;
  outcome: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  label?: string;
}

/** A local SAPI v3 subset that samples submitted problems exactly (enumeration, effective β = 1). */
export interface FakeSapi {
  readonly url: string;
  readonly requests: {
    method: string;
    path: string;
    headers: IncomingMessage['headers'];
    body: unknown;
  }[];
  readonly problems: Map<string, FakeProblem>;
  failures: ScriptedFailure[];
  /** Requests whose "METHOD path" matches are never answered. */
  hang?: RegExp;
  /** Problems stay PENDING this long after submission. */
  completeAfterMs: number;
  /** Terminal state each new problem reaches. */
  outcome: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  failMessage: string;
  /** Jobs (by position in their POST) to refuse with a per-item 400. */
  refuseJob?: (index: number) => boolean;
  /** Rewrites each answer before it is served (malformed-answer tests). */
  tamperAnswer?: (answer: Record<string, unknown>) => unknown;
  close(): Promise<void>;
}
