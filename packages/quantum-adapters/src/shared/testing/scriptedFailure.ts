// The scripting surface the fake servers share (the fake SAPI's and the fake Runtime's).

/** A scripted failure: the next `times` requests whose "METHOD path" matches get this reply. */
export interface ScriptedFailure {
  match: RegExp;
  status: number;
  body?: unknown;
  retryAfter?: string;
  times: number;
}
