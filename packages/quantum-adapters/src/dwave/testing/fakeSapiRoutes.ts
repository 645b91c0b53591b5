// The routes of the fake SAPI v3 server (fakeSapiServer.ts): the token check, scripted failures,
// the solver list, problem submission (sampled exactly), long polls, one problem and cancellation.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SapiSolver } from '../sapiTypes.js';
import type { FakeProblem, FakeSapi } from './fakeSapiTypes.js';
import { sampleJob } from './sampleJob.js';
import type { SubmittedJob } from './sampleJob.js';

/** The fake and what its routes keep between requests. */
export interface FakeSapiState {
  readonly fake: FakeSapi;
  readonly token: string;
  readonly solvers: readonly SapiSolver[];
  /** The number of the last problem id handed out. */
  nextId: number;
  /** The seed of the next submitted job's samples. */
  seed: number;
}

/** How a route answers: a JSON body (or a string as is) with extra headers. */
type Send = (code: number, payload: unknown, headers?: Record<string, string>) => void;

/** A problem's status as SAPI reports it (advanced to now), with its answer when asked and ready. */
function status(
  state: FakeSapiState,
  p: FakeProblem,
  withAnswer: boolean,
): Record<string, unknown> {
  const { fake } = state;
  if ((p.status === 'PENDING' || p.status === 'IN_PROGRESS') && Date.now() >= p.readyAt)
    p.status = p.outcome;
  const out: Record<string, unknown> = {
    id: p.id,
    type: 'ising',
    status: p.status,
    solver: state.solvers[0]!.identity,
    submitted_on: new Date().toISOString(),
    label: p.label,
  };
  if (p.status === 'FAILED') out.error_message = p.error;
  if (withAnswer && p.status === 'COMPLETED')
    out.answer = fake.tamperAnswer
      ? fake.tamperAnswer(p.answer as Record<string, unknown>)
      : p.answer;
  return out;
}

/** POST problems/: each job sampled now (served once ready), or its per-item error. */
function submitJobs(state: FakeSapiState, jobs: SubmittedJob[]): unknown[] {
  const { fake, solvers } = state;
  return jobs.map((job, index) => {
    if (fake.refuseJob?.(index))
      return { error_code: 400, error_msg: `job ${index} refused by the fake` };
    const solver = solvers.find((s) => s.identity.name === job.solver?.name);
    if (!solver)
      return { error_code: 404, error_msg: `solver ${String(job.solver?.name)} not found` };
    let answer: unknown;
    try {
      answer = sampleJob(solver, job, state.seed++);
    } catch (e) {
      return { error_code: 400, error_msg: (e as Error).message };
    }
    const p: FakeProblem = {
      id: `fake-${++state.nextId}`,
      status: 'PENDING',
      readyAt: Date.now() + fake.completeAfterMs,
      answer,
      outcome: fake.outcome,
      error: fake.failMessage,
      label: job.label,
    };
    fake.problems.set(p.id, p);
    return status(state, p, false);
  });
}

/** GET problems/?id=…&timeout=…: the statuses, once one is not PENDING or the timeout has passed. */
async function pollProblems(state: FakeSapiState, url: URL): Promise<unknown[]> {
  const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
  const list = ids
    .map((id) => state.fake.problems.get(id))
    .filter((p): p is FakeProblem => p !== undefined);
  const waitUntil = Date.now() + 1000 * Number(url.searchParams.get('timeout') ?? 0);
  while (Date.now() < waitUntil && list.every((p) => status(state, p, false).status === 'PENDING'))
    await new Promise((r) => setTimeout(r, 5));
  return list.map((p) => status(state, p, false));
}

/** DELETE problems/: pending problems become CANCELLED; each id's status or a 404 item. */
function cancelProblems(state: FakeSapiState, ids: string[]): unknown[] {
  return ids.map((id) => {
    const p = state.fake.problems.get(id);
    if (p && (p.status === 'PENDING' || p.status === 'IN_PROGRESS')) {
      p.status = 'CANCELLED';
      p.outcome = 'CANCELLED';
    }
    return p ? status(state, p, false) : { error_code: 404, error_msg: 'no such problem' };
  });
}

/** The token check and the scripted failures: true when one of them has answered. */
function refused(state: FakeSapiState, req: IncomingMessage, key: string, send: Send): boolean {
  if (req.headers['x-auth-token'] !== state.token) {
    send(401, {
      error_code: 401,
      error_msg: `Invalid token ${String(req.headers['x-auth-token'])}`,
    });
    return true;
  }
  const failure = state.fake.failures.find((f) => f.times > 0 && f.match.test(key));
  if (!failure) return false;
  failure.times--;
  send(
    failure.status,
    failure.body ?? { error_code: failure.status, error_msg: `scripted ${failure.status}` },
    failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {},
  );
  return true;
}

/** Answers one request (its body read whole as `raw`), after recording it. */
export async function handleSapiRequest(
  state: FakeSapiState,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
): Promise<void> {
  const { fake } = state;
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname.replace(/^\/sapi\/v2\//, '');
  const key = `${req.method} ${path}`;
  const body: unknown = raw === '' ? undefined : JSON.parse(raw);
  fake.requests.push({
    method: req.method ?? '',
    path: `${path}${url.search}`,
    headers: req.headers,
    body,
  });
  const send: Send = (code, payload, headers = {}) => {
    res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
    res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  };
  if (fake.hang?.test(key)) return;
  if (refused(state, req, key, send)) return;
  const one = /^problems\/([^/]+)\/$/.exec(path);
  if (req.method === 'GET' && path === 'solvers/remote/') send(200, state.solvers);
  else if (req.method === 'POST' && path === 'problems/')
    send(200, submitJobs(state, body as SubmittedJob[]));
  else if (req.method === 'GET' && path === 'problems/') send(200, await pollProblems(state, url));
  else if (req.method === 'GET' && one) {
    const p = fake.problems.get(decodeURIComponent(one[1]!));
    if (p) send(200, status(state, p, true));
    else send(404, { error_code: 404, error_msg: 'no such problem' });
  } else if (req.method === 'DELETE' && path === 'problems/')
    send(200, cancelProblems(state, body as string[]));
  else send(404, { error_code: 404, error_msg: `no route ${key}` });
}
