import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng } from '@boltzmann/ising-core';
import { chimeraGraph } from '../../chimera.js';
import { pegasusGraph } from '../../pegasus.js';
import { zephyrGraph } from '../../zephyr.js';
import type { ChimeraShape } from '../../chimera.js';
import type { SapiSolver } from '../../sapiTypes.js';
import { decodeFloat64LE, encodeBase64, encodeFloat64LE, encodeInt32LE } from '../base64.js';
import { drawBoltzmann } from './boltzmannDraw.js';

/** A scripted failure: the next `times` requests whose "METHOD path" matches get this reply. */
export interface ScriptedFailure {
  match: RegExp;
  status: number;
  body?: unknown;
  retryAfter?: string;
  times: number;
}

/** The fields of a submitted SAPI problem that the fake reads (as a client sent them, unchecked). */
interface SubmittedJob {
  readonly solver?: { readonly name?: string };
  readonly data: { readonly lin: unknown; readonly quad: unknown };
  readonly params?: {
    readonly auto_scale?: boolean;
    readonly num_reads?: number;
    readonly answer_mode?: string;
  };
  readonly label?: string;
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

/** A Chimera QPU solver definition as SAPI lists it, optionally with missing qubits. */
export function fakeChimeraSolver(
  shape: ChimeraShape,
  opts: {
    name?: string;
    missing?: number[];
    hRange?: [number, number];
    jRange?: [number, number];
  } = {},
): SapiSolver {
  const full = chimeraGraph(shape);
  const missing = new Set(opts.missing ?? []);
  return {
    identity: { name: opts.name ?? 'FakeChimera_system', version: { graph_id: 'fake01' } },
    status: 'ONLINE',
    avg_load: 0.1,
    properties: {
      category: 'qpu',
      supported_problem_types: ['qubo', 'ising'],
      num_qubits: full.qubits.length,
      qubits: full.qubits.filter((q) => !missing.has(q)),
      couplers: full.couplers.filter(([a, b]) => !missing.has(a) && !missing.has(b)),
      topology: { type: 'chimera', shape: [shape.rows, shape.columns, shape.shore] },
      h_range: opts.hRange ?? [-4, 4],
      j_range: opts.jRange ?? [-1, 1],
      extended_j_range: opts.jRange ?? [-2, 1],
      num_reads_range: [1, 10000],
      parameters: { num_reads: '', auto_scale: '', answer_mode: '', annealing_time: '' },
    },
  };
}

/** A Pegasus QPU solver definition (full yield), as an Advantage system lists it. */
export function fakePegasusSolver(
  m: number,
  opts: { name?: string; hRange?: [number, number]; jRange?: [number, number] } = {},
): SapiSolver {
  return fakeLatticeSolver(
    pegasusGraph(m),
    24 * m * (m - 1),
    { type: 'pegasus', shape: [m] },
    { name: 'FakeAdvantage_system', graphId: 'fakepeg', ...opts },
  );
}

/** A Zephyr QPU solver definition (full yield), as an Advantage2 system lists it. */
export function fakeZephyrSolver(
  m: number,
  t: number,
  opts: { name?: string; hRange?: [number, number]; jRange?: [number, number] } = {},
): SapiSolver {
  const graph = zephyrGraph(m, t);
  return fakeLatticeSolver(
    graph,
    graph.qubits.length,
    { type: 'zephyr', shape: [m, t] },
    { name: 'FakeAdvantage2_system', graphId: 'fakezep', ...opts },
  );
}

function fakeLatticeSolver(
  graph: { qubits: readonly number[]; couplers: readonly (readonly [number, number])[] },
  numQubits: number,
  topology: { type: string; shape: number[] },
  opts: { name: string; graphId: string; hRange?: [number, number]; jRange?: [number, number] },
): SapiSolver {
  return {
    identity: { name: opts.name, version: { graph_id: opts.graphId } },
    status: 'ONLINE',
    avg_load: 0.1,
    properties: {
      category: 'qpu',
      supported_problem_types: ['qubo', 'ising'],
      num_qubits: numQubits,
      qubits: graph.qubits,
      couplers: graph.couplers,
      topology,
      h_range: opts.hRange ?? [-4, 4],
      j_range: opts.jRange ?? [-1, 1],
      num_reads_range: [1, 10000],
      parameters: { num_reads: '', auto_scale: '', answer_mode: '', annealing_time: '' },
    },
  };
}

function autoScaleFactor(solver: SapiSolver, lin: number[], quad: number[]): number {
  const p = solver.properties as {
    h_range: [number, number];
    extended_j_range?: [number, number];
    j_range: [number, number];
  };
  const jr = p.extended_j_range ?? p.j_range;
  const terms = [
    lin.length ? Math.max(...lin) / p.h_range[1] : 0,
    lin.length ? Math.min(...lin) / p.h_range[0] : 0,
    quad.length ? Math.max(...quad) / jr[1] : 0,
    quad.length ? Math.min(...quad) / jr[0] : 0,
  ].map((t) => Math.max(0, t));
  const f = Math.max(...terms);
  return f > 0 ? f : 1;
}

function sampleJob(solver: SapiSolver, job: SubmittedJob, seed: number): Record<string, unknown> {
  const props = solver.properties as {
    qubits: number[];
    couplers: [number, number][];
    num_qubits: number;
  };
  const linAll = [...decodeFloat64LE(job.data.lin, 'lin')];
  if (linAll.length !== props.qubits.length)
    throw new Error(`lin has ${linAll.length} values for ${props.qubits.length} qubits`);
  const active = props.qubits.filter((_, i) => !Number.isNaN(linAll[i]));
  const col = new Map(active.map((q, k) => [q, k]));
  const lin = props.qubits.map((_, i) => linAll[i]!).filter((v) => !Number.isNaN(v));
  const activeCouplers = props.couplers.filter(([a, b]) => col.has(a) && col.has(b));
  const quad = [...decodeFloat64LE(job.data.quad, 'quad')];
  if (quad.length !== activeCouplers.length)
    throw new Error(`quad has ${quad.length} values for ${activeCouplers.length} active couplers`);
  const params = job.params ?? {};
  const factor = params.auto_scale === false ? 1 : autoScaleFactor(solver, lin, quad);
  const pairs = activeCouplers.map(([a, b]) => [col.get(a)!, col.get(b)!] as const);
  const energy = (bits: number): number => {
    let e = 0;
    for (let k = 0; k < lin.length; k++) e += lin[k]! * ((bits >> k) & 1 ? 1 : -1);
    pairs.forEach(([a, b], c) => {
      e += quad[c]! * (((bits >> a) ^ (bits >> b)) & 1 ? -1 : 1);
    });
    return e;
  };
  const reads = drawBoltzmann(
    active.length,
    energy,
    1 / factor,
    params.num_reads ?? 1,
    createRng(seed),
  );
  let rows: number[];
  let counts: number[];
  if (params.answer_mode === 'raw') {
    rows = reads;
    counts = [];
  } else {
    const hist = new Map<number, number>();
    for (const s of reads) hist.set(s, (hist.get(s) ?? 0) + 1);
    rows = [...hist.keys()].sort((x, y) => energy(x) - energy(y) || x - y);
    counts = rows.map((s) => hist.get(s)!);
  }
  const bytesPer = Math.ceil(active.length / 8);
  const packed = new Uint8Array(rows.length * bytesPer);
  rows.forEach((s, i) => {
    for (let k = 0; k < active.length; k++)
      if ((s >> k) & 1) packed[i * bytesPer + (k >> 3)]! |= 0x80 >> (k & 7);
  });
  return {
    format: 'qp',
    num_variables: props.num_qubits,
    active_variables: encodeInt32LE(active),
    energies: encodeFloat64LE(rows.map(energy)),
    ...(counts.length ? { num_occurrences: encodeInt32LE(counts) } : {}),
    solutions: encodeBase64(packed),
    timing: { qpu_access_time: 1000 + 10 * reads.length },
  };
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
