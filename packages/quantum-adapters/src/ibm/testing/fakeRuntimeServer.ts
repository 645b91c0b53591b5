// A local fake of IBM Cloud IAM (`POST /identity/token`) and the Qiskit Runtime REST subset the
// client uses (`/api/v1/…`, routes in fakeRuntimeRoutes.ts, types in fakeRuntimeTypes.ts), on one
// 127.0.0.1 port. It records every request, checks the key, tokens (with their expiry), Service-CRN
// and IBM-API-Version, and can script failures, redirects and hangs. Test-only.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Rng } from '@boltzmann/ising-core';
import type { IbmBackendConfiguration } from '../ibmTypes.js';
import { drawFromCdf } from '../../shared/testing/boltzmannDraw.js';
import { errorBody, handleRuntimeRoute, reply } from './fakeRuntimeRoutes.js';
import type { FakeRuntimeState, Reply } from './fakeRuntimeRoutes.js';
import type { AnswerPub, FakeBackend, FakeRuntime } from './fakeRuntimeTypes.js';

export type { FakePub, FakePubAnswer, FakeRuntime } from './fakeRuntimeTypes.js';

/** The shots of a register of `numBits` bits drawn from `weights` over its 2^numBits values (bit k of the index = c[k]). */
export function drawHexShots(weights: ArrayLike<number>, shots: number, rng: Rng): string[] {
  const cdf = new Float64Array(weights.length);
  let total = 0;
  for (let s = 0; s < weights.length; s++) cdf[s] = total += weights[s]!;
  return drawFromCdf(cdf, shots, rng).map((s) => `0x${s.toString(16)}`);
}

/** The `bit[n] name;` register a circuit declares (a fake pub's answer is keyed by it). */
export function declaredRegister(qasm: string): { register: string; numBits: number } {
  const m = /\bbit\[(\d+)\]\s+(\w+)\s*;/.exec(qasm);
  if (m === null) throw new Error('the circuit declares no bit[n] register');
  return { register: m[2]!, numBits: Number(m[1]) };
}

/** The default answer: uniform shots over the `bit[n] name;` register the circuit declares. */
export const uniformAnswer: AnswerPub = (pub, rng) => {
  const { register, numBits } = declaredRegister(pub.qasm);
  const samples = Array.from({ length: pub.shots }, () => {
    let hex = '';
    for (let b = 0; b < numBits; b += 4)
      hex = Math.floor(rng.next() * 2 ** Math.min(4, numBits - b)).toString(16) + hex;
    return `0x${hex}`;
  });
  return { register, numBits, samples };
};

/** A 7-qubit line with Heron's basis, its properties, and a simulator without properties. */
function defaultBackends(): Map<string, FakeBackend> {
  const line: [number, number][] = [];
  for (let q = 0; q < 6; q++) line.push([q, q + 1], [q + 1, q]);
  const configuration: IbmBackendConfiguration = {
    backend_name: 'fake_line7',
    n_qubits: 7,
    basis_gates: ['cz', 'id', 'rz', 'sx', 'x'],
    coupling_map: line,
    max_experiments: 300,
    max_shots: 100_000,
  };
  const qubits = Array.from({ length: 7 }, () => [
    { name: 'T1', value: 200, unit: 'us' },
    { name: 'readout_error', value: 0.01, unit: '' },
  ]);
  const status = { state: true, status: 'active', message: '', length_queue: 0 };
  return new Map([
    ['fake_line7', { configuration, properties: { qubits, gates: [] }, status }],
    [
      'fake_sim',
      {
        configuration: { ...configuration, backend_name: 'fake_sim' },
        status: { ...status, backend_name: 'fake_sim' },
      },
    ],
  ]);
}

/** IAM: the form checked, a token issued with `tokenLifetimeSeconds`; a wrong key gets IAM's 400. */
function issueToken(state: ServerState, req: IncomingMessage, raw: string): Reply {
  const form = new URLSearchParams(raw);
  if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
    return reply(400, { errorCode: 'BXNIM0109E', errorMessage: 'form body expected' });
  if (
    form.get('grant_type') !== 'urn:ibm:params:oauth:grant-type:apikey' ||
    form.get('apikey') !== state.apiKey
  )
    return reply(400, {
      errorCode: 'BXNIM0415E',
      errorMessage: 'Provided API key could not be found.',
    });
  const { fake } = state;
  const token = `fake-iam-token-${fake.tokens.length + 1}-${state.seed}`;
  fake.tokens.push(token);
  const lifetime = fake.tokenLifetimeSeconds;
  state.expiry.set(token, Date.now() + lifetime * 1000);
  return reply(200, {
    access_token: token,
    refresh_token: 'not-used',
    token_type: 'Bearer',
    expires_in: lifetime,
    expiration: Math.floor(Date.now() / 1000) + lifetime,
    scope: 'ibm openid',
  });
}

/** The token, CRN and version checks of a Runtime request: the refusal, if any. */
function refusal(state: ServerState, req: IncomingMessage): Reply | undefined {
  const auth = String(req.headers.authorization ?? '');
  const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
  const expiry = state.expiry.get(token);
  // Echoes what it got, to prove the client redacts it.
  if (expiry === undefined || Date.now() >= expiry)
    return reply(401, errorBody(`Invalid or expired token ${auth}`, 'unauthorized'));
  if (state.serviceCrn !== undefined && req.headers['service-crn'] !== state.serviceCrn)
    return reply(403, errorBody('You are not authorized to use this instance (Service-CRN)'));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(req.headers['ibm-api-version'])))
    return reply(400, errorBody('IBM-API-Version must be a date', 'bad_version'));
  return undefined;
}

interface ServerState extends FakeRuntimeState {
  readonly apiKey: string;
  readonly serviceCrn: string | undefined;
  /** Expiry (epoch ms) of each issued token. */
  readonly expiry: Map<string, number>;
}

/** The scripted redirect or failure for `key`, if any (each used up once). */
function scripted(state: ServerState, key: string, path: string): Reply | undefined {
  const { fake } = state;
  const redirect = fake.redirects.find((r) => r.times > 0 && r.match.test(key));
  if (redirect !== undefined) {
    redirect.times--;
    return reply(redirect.status, 'moved', { Location: new URL(path, redirect.to).toString() });
  }
  const failure = fake.failures.find((f) => f.times > 0 && f.match.test(key));
  if (failure === undefined) return undefined;
  failure.times--;
  return reply(
    failure.status,
    failure.body ?? errorBody(`scripted ${failure.status}`, 'scripted'),
    failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {},
  );
}

/** The answer to one request (its body read whole as `raw`). */
function route(state: ServerState, req: IncomingMessage, url: URL, raw: string): Reply {
  const method = req.method ?? '';
  const scriptedReply = scripted(state, `${method} ${url.pathname}`, req.url ?? '/');
  if (scriptedReply !== undefined) return scriptedReply;
  if (method === 'POST' && url.pathname === '/identity/token') return issueToken(state, req, raw);
  if (!url.pathname.startsWith('/api/v1/')) return reply(404, errorBody('no such route'));
  const refused = refusal(state, req);
  if (refused !== undefined) return refused;
  let body: Record<string, unknown> = {};
  try {
    body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
  } catch {
    return reply(400, errorBody('body is not JSON'));
  }
  const parts = url.pathname.slice('/api/v1/'.length).split('/').filter(Boolean);
  return handleRuntimeRoute(state, method, parts, body);
}

/** Records a request, then answers it (never, when it matches `hang`). */
function handle(state: ServerState, req: IncomingMessage, res: ServerResponse, raw: string): void {
  const { fake } = state;
  const url = new URL(req.url ?? '/', 'http://x');
  const method = req.method ?? '';
  fake.requests.push({
    method,
    path: `${url.pathname}${url.search}`,
    headers: req.headers,
    body: raw,
  });
  if (fake.hang?.test(`${method} ${url.pathname}`)) return;
  const { code, payload, headers = {} } = route(state, req, url, raw);
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  if (payload !== undefined && typeof payload !== 'string')
    headers['Content-Type'] = 'application/json';
  res.writeHead(code, headers);
  res.end(payload === undefined ? undefined : text);
}

/**
 * Starts the fake on 127.0.0.1 with an ephemeral port. IAM accepts only `apiKey`; Runtime accepts
 * only unexpired tokens it issued, and (when given) only `serviceCrn` as `Service-CRN`.
 */
export async function startFakeRuntime(options: {
  apiKey: string;
  serviceCrn?: string;
  seed?: number;
}): Promise<FakeRuntime> {
  const fake: FakeRuntime = {
    url: '',
    runtimeUrl: '',
    iamUrl: '',
    requests: [],
    jobs: new Map(),
    sessions: new Map(),
    backends: defaultBackends(),
    tokens: [],
    failures: [],
    redirects: [],
    tokenLifetimeSeconds: 3600,
    completeAfterMs: 20,
    outcome: 'Completed',
    failReason: 'circuit rejected by the fake backend',
    answerPub: uniformAnswer,
    close: async () => {},
  };
  const state: ServerState = {
    fake,
    nextJob: 0,
    nextSession: 0,
    seed: options.seed ?? 1,
    apiKey: options.apiKey,
    serviceCrn: options.serviceCrn,
    expiry: new Map(),
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => handle(state, req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  Object.assign(fake, {
    url,
    runtimeUrl: `${url}/api/v1/`,
    iamUrl: `${url}/identity/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return fake;
}
