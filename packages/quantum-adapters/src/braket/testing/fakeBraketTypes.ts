// The fake Braket + S3 server's state and scripting surface (fakeBraketServer.ts, fakeBraketRoutes.ts).

/** The CreateQuantumTask fields the fake reads; the handler checks that each one is present. */
export interface CreateTaskBody {
  readonly action: string;
  readonly clientToken: string;
  readonly deviceArn: string;
  readonly outputS3Bucket: string;
  readonly outputS3KeyPrefix: string;
  readonly shots: number;
  readonly [field: string]: unknown;
}

/** A task of the fake device: its status moves to `outcome` once `readyAt` has passed. */
export interface FakeTask {
  arn: string;
  status: 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLING' | 'CANCELLED';
  readyAt: number;
  outcome: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  body: CreateTaskBody;
  directory: string;
}

/** A scripted failure for the next `times` requests whose "METHOD path" matches. */
export interface BraketScriptedFailure {
  match: RegExp;
  status: number;
  errorType: string;
  times: number;
}

/** A local Braket (rest-json) + S3 (path-style) subset whose device runs the submitted OpenQASM exactly. */
export interface FakeBraket {
  readonly url: string;
  readonly requests: { method: string; path: string; body: unknown; authorization: string }[];
  readonly tasks: Map<string, FakeTask>;
  readonly objects: Map<string, string>;
  failures: BraketScriptedFailure[];
  hang?: RegExp;
  completeAfterMs: number;
  outcome: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  /** Per-task override of the outcome and delay, by creation order (0, 1, …). */
  taskPlan?: (index: number) => { outcome: FakeTask['outcome']; delayMs: number } | undefined;
  /** 'measurements' (default) or 'probabilities' (exact distribution in measurementProbabilities). */
  resultForm: 'measurements' | 'probabilities';
  /** Rewrites each results.json before it is stored. */
  tamperResult?: (result: Record<string, unknown>) => unknown;
  close(): Promise<void>;
}
