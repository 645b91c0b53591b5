import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SapiSolver } from '../../sapiTypes.js';
import { fakeChimeraSolver } from './fakeSolvers.js';
import { sampleJob } from './sampleJob.js';
import type { SubmittedJob } from './sampleJob.js';

/** A scripted failure: the next `times` requests whose "METHOD path" matches get this reply. */
export interface ScriptedFailure {
  match: RegExp;
  status: number;
  body?: unknown;
  retryAfter?: string;
  times: number;
}

interface FakeProblem {
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

/**
 * Starts the fake on 127.0.0.1 with an ephemeral port. Requests without the right `X-Auth-Token`
 * get 401 with a body that echoes the token they sent (to prove clients redact it).
 */
export async function startFakeSapi(options: {
  token: string;
  solvers?: SapiSolver[];
  seed?: number;
}): Promise<FakeSapi> {
  const solvers = options.solvers ?? [fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 })];
  let nextId = 0;
  let seed = options.seed ?? 1;
  const fake: FakeSapi = {
    url: '',
    requests: [],
    problems: new Map(),
    failures: [],
    completeAfterMs: 20,
    outcome: 'COMPLETED',
    failMessage: 'problem rejected by the fake solver',
    close: async () => {},
  };

  const status = (p: FakeProblem, withAnswer: boolean): Record<string, unknown> => {
    if ((p.status === 'PENDING' || p.status === 'IN_PROGRESS') && Date.now() >= p.readyAt)
      p.status = p.outcome;
    const out: Record<string, unknown> = {
      id: p.id,
      type: 'ising',
      status: p.status,
      solver: solvers[0]!.identity,
      submitted_on: new Date().toISOString(),
      label: p.label,
    };
    if (p.status === 'FAILED') out.error_message = p.error;
    if (withAnswer && p.status === 'COMPLETED')
      out.answer = fake.tamperAnswer
        ? fake.tamperAnswer(p.answer as Record<string, unknown>)
        : p.answer;
    return out;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
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
    const send = (code: number, payload: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    if (fake.hang?.test(key)) return;
    if (req.headers['x-auth-token'] !== options.token) {
      send(401, {
        error_code: 401,
        error_msg: `Invalid token ${String(req.headers['x-auth-token'])}`,
      });
      return;
    }
    const failure = fake.failures.find((f) => f.times > 0 && f.match.test(key));
    if (failure) {
      failure.times--;
      send(
        failure.status,
        failure.body ?? { error_code: failure.status, error_msg: `scripted ${failure.status}` },
        failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {},
      );
      return;
    }
    if (req.method === 'GET' && path === 'solvers/remote/') return send(200, solvers);
    if (req.method === 'POST' && path === 'problems/') {
      const jobs = body as SubmittedJob[];
      return send(
        200,
        jobs.map((job, index) => {
          if (fake.refuseJob?.(index))
            return { error_code: 400, error_msg: `job ${index} refused by the fake` };
          const solver = solvers.find((s) => s.identity.name === job.solver?.name);
          if (!solver)
            return { error_code: 404, error_msg: `solver ${String(job.solver?.name)} not found` };
          let answer: unknown;
          try {
            answer = sampleJob(solver, job, seed++);
          } catch (e) {
            return { error_code: 400, error_msg: (e as Error).message };
          }
          const p: FakeProblem = {
            id: `fake-${++nextId}`,
            status: 'PENDING',
            readyAt: Date.now() + fake.completeAfterMs,
            answer,
            outcome: fake.outcome,
            error: fake.failMessage,
            label: job.label,
          };
          fake.problems.set(p.id, p);
          return status(p, false);
        }),
      );
    }
    if (req.method === 'GET' && path === 'problems/') {
      const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
      const list = ids
        .map((id) => fake.problems.get(id))
        .filter((p): p is FakeProblem => p !== undefined);
      const waitUntil = Date.now() + 1000 * Number(url.searchParams.get('timeout') ?? 0);
      while (Date.now() < waitUntil && list.every((p) => status(p, false).status === 'PENDING'))
        await new Promise((r) => setTimeout(r, 5));
      return send(
        200,
        list.map((p) => status(p, false)),
      );
    }
    const one = /^problems\/([^/]+)\/$/.exec(path);
    if (req.method === 'GET' && one) {
      const p = fake.problems.get(decodeURIComponent(one[1]!));
      return p
        ? send(200, status(p, true))
        : send(404, { error_code: 404, error_msg: 'no such problem' });
    }
    if (req.method === 'DELETE' && path === 'problems/') {
      return send(
        200,
        (body as string[]).map((id) => {
          const p = fake.problems.get(id);
          if (p && (p.status === 'PENDING' || p.status === 'IN_PROGRESS')) {
            p.status = 'CANCELLED';
            p.outcome = 'CANCELLED';
          }
          return p ? status(p, false) : { error_code: 404, error_msg: 'no such problem' };
        }),
      );
    }
    send(404, { error_code: 404, error_msg: `no route ${key}` });
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      handle(req, res, raw).catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(fake, {
    url: `http://127.0.0.1:${port}/sapi/v2/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return fake;
}
