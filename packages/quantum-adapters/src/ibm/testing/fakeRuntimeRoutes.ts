// The Runtime routes of the fake IBM Quantum server (fakeRuntimeServer.ts): backends, sessions,
// Sampler V2 jobs (their circuits checked by fakeRuntimeCircuit.ts, their shots drawn at submission
// by `answerPub`), status, results, cancel and metrics. Test-only.
import { createRng } from '@boltzmann/ising-core';
import { circuitRefusal } from './fakeRuntimeCircuit.js';
import type { FakeRuntime, FakeRuntimeJob, FakePubAnswer } from './fakeRuntimeTypes.js';

/** The fake and what its routes keep between requests. */
export interface FakeRuntimeState {
  readonly fake: FakeRuntime;
  /** Numbers of the last job and session ids handed out. */
  nextJob: number;
  nextSession: number;
  /** The seed of the next job's shots. */
  seed: number;
}

/** A route's answer: a status, a JSON body (none for 204) and extra headers. */
export interface Reply {
  readonly code: number;
  readonly payload?: unknown;
  readonly headers?: Record<string, string>;
}

/** The {@link Reply} of `code`, `payload` and `headers`. */
export const reply = (
  code: number,
  payload?: unknown,
  headers?: Record<string, string>,
): Reply => ({
  code,
  payload,
  headers,
});

/** An IBM Cloud style error body. */
export const errorBody = (message: string, code = 'fake_error') => ({
  errors: [{ code, message, more_info: 'https://example.invalid/fake' }],
  trace: 'fake-trace',
});

/** A job's state advanced to now: Queued, Running past half its time, then its outcome. */
function advance(job: FakeRuntimeJob): FakeRuntimeJob {
  if (job.status !== 'Queued' && job.status !== 'Running') return job;
  const now = Date.now();
  if (now >= job.readyAt) {
    job.status = job.outcome;
    if (job.outcome !== 'Completed') job.reason ??= 'failed in the fake';
  } else if (now >= (job.submittedAt + job.readyAt) / 2) job.status = 'Running';
  return job;
}

function jobView(job: FakeRuntimeJob): Record<string, unknown> {
  const state: Record<string, unknown> = { status: job.status };
  if (job.reason !== undefined && job.status !== 'Completed') state.reason = job.reason;
  return { id: job.id, backend: job.backend, state, status: job.status, session_id: job.sessionId };
}

type Pub = [unknown, unknown?, unknown?];

/** The answers of a job's pubs, or a refusal message. */
function answerPubs(state: FakeRuntimeState, pubs: unknown, defaultShots: number) {
  if (!Array.isArray(pubs) || pubs.length === 0) return 'params.pubs must be a non-empty list';
  const rng = createRng(state.seed++);
  const answers: FakePubAnswer[] = [];
  let shots = 0;
  for (const [index, pub] of (pubs as Pub[]).entries()) {
    if (!Array.isArray(pub) || typeof pub[0] !== 'string') return `pub ${index} is not [qasm, …]`;
    const refusal = circuitRefusal(pub[0]);
    if (refusal !== undefined) return `pub ${index}: ${refusal}`;
    const n = pub[2] ?? defaultShots;
    if (!Number.isInteger(n) || (n as number) < 1) return `pub ${index} has bad shots`;
    try {
      answers.push(
        state.fake.answerPub(
          { index, qasm: pub[0], params: pub[1] ?? null, shots: n as number },
          rng,
        ),
      );
    } catch (e) {
      return `pub ${index}: ${(e as Error).message}`;
    }
    shots += n as number;
  }
  return { answers, shots };
}

/** POST /jobs: checked like the service would, sampled now, served once ready. */
function submitJob(state: FakeRuntimeState, body: Record<string, unknown>): Reply {
  const { fake } = state;
  const params = (body.params ?? {}) as Record<string, unknown>;
  // The string "2", the type IBM's REST guide sends (docs/guides/primitives-rest-api.ipynb).
  if (body.program_id !== 'sampler' || params.version !== '2')
    return reply(400, errorBody('only program_id "sampler" with params.version "2" is faked'));
  const backend = String(body.backend);
  if (!fake.backends.has(backend)) return reply(404, errorBody(`backend ${backend} not found`));
  const sessionId = body.session_id as string | undefined;
  if (sessionId !== undefined && fake.sessions.get(sessionId)?.acceptingJobs !== true)
    return reply(400, errorBody(`session ${sessionId} is not accepting jobs`));
  const options = (params.options ?? {}) as { default_shots?: number };
  const drawn = answerPubs(state, params.pubs, options.default_shots ?? 1024);
  if (typeof drawn === 'string') return reply(400, errorBody(drawn, 'invalid_pubs'));
  const results = {
    results: drawn.answers.map((a) => ({
      data: { [a.register]: { samples: a.samples, num_bits: a.numBits } },
      metadata: { circuit_metadata: {} },
    })),
    metadata: { version: 2, execution: { fake: true } },
  };
  const now = Date.now();
  const job: FakeRuntimeJob = {
    id: `job-${++state.nextJob}`,
    backend,
    sessionId,
    status: 'Queued',
    submittedAt: now,
    readyAt: now + fake.completeAfterMs,
    outcome: fake.outcome,
    reason: fake.outcome === 'Failed' ? fake.failReason : undefined,
    results,
    shots: drawn.shots,
  };
  fake.jobs.set(job.id, job);
  const messages =
    fake.submitWarning === undefined ? undefined : [{ level: 'warning', data: fake.submitWarning }];
  return reply(200, { id: job.id, backend, messages });
}

/** The routes of `/jobs/{id}…`. */
function jobRoute(state: FakeRuntimeState, method: string, rest: string[]): Reply {
  const job = state.fake.jobs.get(decodeURIComponent(rest[0] ?? ''));
  if (job === undefined) return reply(404, errorBody('job not found', 'not_found'));
  advance(job);
  const what = rest[1];
  if (method === 'GET' && what === undefined) return reply(200, jobView(job));
  if (method === 'GET' && what === 'results') {
    if (job.status !== 'Completed') return reply(409, errorBody(`job is ${job.status}`));
    const { tamperResults } = state.fake;
    return reply(200, tamperResults ? tamperResults(job.results) : job.results);
  }
  if (method === 'GET' && what === 'metrics')
    return reply(200, { usage: { quantum_seconds: job.shots / 1000, seconds: job.shots / 1000 } });
  if (method === 'POST' && what === 'cancel') {
    if (job.status !== 'Queued' && job.status !== 'Running')
      return reply(409, errorBody(`job is already ${job.status}`, 'conflict'));
    job.status = 'Cancelled';
    job.outcome = 'Cancelled';
    job.reason = 'cancelled by the client';
    return reply(204);
  }
  return reply(404, errorBody(`no route ${method} jobs/…/${what}`));
}

/** The routes of `/sessions…`. */
function sessionRoute(
  state: FakeRuntimeState,
  method: string,
  rest: string[],
  body: Record<string, unknown>,
): Reply {
  const { sessions } = state.fake;
  if (method === 'POST' && rest.length === 0) {
    if (body.mode !== 'batch' && body.mode !== 'dedicated')
      return reply(400, errorBody('mode must be batch or dedicated'));
    const id = `session-${++state.nextSession}`;
    const maxTtl = typeof body.max_ttl === 'number' ? body.max_ttl : undefined;
    sessions.set(id, {
      id,
      mode: body.mode,
      backend: String(body.backend),
      maxTtl,
      acceptingJobs: true,
    });
    return reply(200, {
      id,
      mode: body.mode,
      backend_name: body.backend,
      max_ttl: maxTtl ?? 28800,
      accepting_jobs: true,
      state: 'open',
    });
  }
  const session = sessions.get(decodeURIComponent(rest[0] ?? ''));
  if (session === undefined) return reply(404, errorBody('session not found', 'not_found'));
  if (method === 'PATCH' && rest.length === 1) {
    if (body.accepting_jobs === false) session.acceptingJobs = false;
    return reply(204);
  }
  return reply(404, errorBody(`no route ${method} sessions/…`));
}

/** Answers one authorized Runtime request; `parts` is the path below `/api/v1/`, split at `/`. */
export function handleRuntimeRoute(
  state: FakeRuntimeState,
  method: string,
  parts: string[],
  body: Record<string, unknown>,
): Reply {
  const [head, ...rest] = parts;
  if (head === 'jobs' && method === 'POST' && rest.length === 0) return submitJob(state, body);
  if (head === 'jobs') return jobRoute(state, method, rest);
  if (head === 'sessions') return sessionRoute(state, method, rest, body);
  const backend =
    head === 'backends' ? state.fake.backends.get(decodeURIComponent(rest[0] ?? '')) : undefined;
  if (method === 'GET' && backend !== undefined) {
    if (rest[1] === 'configuration') return reply(200, backend.configuration);
    if (rest[1] === 'status') return reply(200, backend.status);
    if (rest[1] === 'properties')
      return backend.properties === undefined
        ? reply(404, errorBody('properties not found', 'not_found'))
        : reply(200, backend.properties);
  }
  return reply(404, errorBody(`no route ${method} /api/v1/${parts.join('/')}`, 'not_found'));
}
