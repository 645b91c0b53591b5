// The routes of the fake Braket + S3 server (fakeBraketServer.ts): authorization, scripted
// failures, CreateQuantumTask, CancelQuantumTask, GetQuantumTask and S3 GetObject.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRng } from '@boltzmann/ising-core';
import { drawFromCdf } from '../../shared/testing/boltzmannDraw.js';
import type { CreateTaskBody, FakeBraket, FakeTask } from './fakeBraketTypes.js';
import { simulateQasm } from '../../shared/testing/qasmInterpreter.js';

/** The fake and what its routes keep between requests. */
export interface FakeBraketState {
  readonly fake: FakeBraket;
  /** Idempotency: the task created for each client token. */
  readonly byToken: Map<string, string>;
  /** The seed of the next completed task's measurements. */
  seed: number;
}

/** How a route answers. */
interface Reply {
  json(code: number, payload: unknown, headers?: Record<string, string>): void;
  error(code: number, type: string, message: string): void;
}

/** The gate-model results.json of a completed task: its circuit run exactly, then `shots` draws (or the probabilities). */
function resultsJson(
  task: FakeTask,
  form: FakeBraket['resultForm'],
  seed: number,
): Record<string, unknown> {
  const action = JSON.parse(task.body.action) as {
    braketSchemaHeader?: { name?: string };
    source?: string;
  };
  if (
    action.braketSchemaHeader?.name !== 'braket.ir.openqasm.program' ||
    typeof action.source !== 'string'
  )
    throw new Error('action is not an OpenQASM program');
  const { qubits, probabilities } = simulateQasm(action.source);
  const shots = Number(task.body.shots);
  const measuredQubits = Array.from({ length: qubits }, (_, j) => j);
  const bitsOf = (index: number): number[] => measuredQubits.map((j) => (index >> j) & 1);
  const out: Record<string, unknown> = {
    braketSchemaHeader: { name: 'braket.task_result.gate_model_task_result', version: '1' },
    measuredQubits,
    taskMetadata: {
      braketSchemaHeader: { name: 'braket.task_result.task_metadata', version: '1' },
      id: task.arn,
      shots,
      deviceId: task.body.deviceArn,
      status: 'COMPLETED',
    },
    additionalMetadata: { action },
  };
  if (form === 'probabilities') {
    const table: Record<string, number> = {};
    probabilities.forEach((p, index) => {
      if (p > 0) table[bitsOf(index).join('')] = p;
    });
    out.measurementProbabilities = table;
  } else {
    const cdf = new Float64Array(probabilities.length);
    let acc = 0;
    probabilities.forEach((p, i) => (cdf[i] = acc += p));
    out.measurements = drawFromCdf(cdf, shots, createRng(seed)).map(bitsOf);
  }
  return out;
}

/** Moves a task whose time has come to its outcome, storing results.json when it completed. */
function advance(state: FakeBraketState, t: FakeTask): FakeTask {
  const { fake } = state;
  if ((t.status === 'QUEUED' || t.status === 'RUNNING') && Date.now() >= t.readyAt) {
    t.status = t.outcome;
    if (t.status === 'COMPLETED') {
      const result = resultsJson(t, fake.resultForm, state.seed++);
      const doc = fake.tamperResult ? fake.tamperResult(result) : result;
      fake.objects.set(
        `${t.body.outputS3Bucket}/${t.directory}/results.json`,
        typeof doc === 'string' ? doc : JSON.stringify(doc),
      );
    }
  }
  return t;
}

const REQUIRED_FIELDS = [
  'action',
  'clientToken',
  'deviceArn',
  'outputS3Bucket',
  'outputS3KeyPrefix',
  'shots',
] as const;

/** POST /quantum-task: a new task (or the one this client token already created). */
function createTask(state: FakeBraketState, b: CreateTaskBody, reply: Reply): void {
  const { fake, byToken } = state;
  for (const field of REQUIRED_FIELDS) {
    if (b[field] === undefined) {
      reply.error(400, 'ValidationException', `missing ${field}`);
      return;
    }
  }
  let arn = byToken.get(b.clientToken);
  if (arn === undefined) {
    const id = randomUUID();
    arn = `arn:aws:braket:us-east-1:123456789012:quantum-task/${id}`;
    byToken.set(b.clientToken, arn);
    const plan = fake.taskPlan?.(fake.tasks.size);
    fake.tasks.set(arn, {
      arn,
      status: 'QUEUED',
      readyAt: Date.now() + (plan?.delayMs ?? fake.completeAfterMs),
      outcome: plan?.outcome ?? fake.outcome,
      body: b,
      directory: `${b.outputS3KeyPrefix}/${id}`,
    });
  }
  reply.json(201, { quantumTaskArn: arn });
}

/** PUT /quantum-task/{arn}/cancel: a queued or running task becomes CANCELLED. */
function cancelTask(state: FakeBraketState, arn: string, reply: Reply): void {
  const t = state.fake.tasks.get(arn);
  if (!t) {
    reply.error(404, 'ResourceNotFoundException', 'no such task');
    return;
  }
  if (t.status === 'QUEUED' || t.status === 'RUNNING') t.status = t.outcome = 'CANCELLED';
  reply.json(200, { quantumTaskArn: t.arn, cancellationStatus: 'CANCELLED' });
}

/** GET /quantum-task/{arn}: the task's status, advanced to now. */
function getTask(state: FakeBraketState, arn: string, reply: Reply): void {
  const t = state.fake.tasks.get(arn);
  if (!t) {
    reply.error(404, 'ResourceNotFoundException', 'no such task');
    return;
  }
  advance(state, t);
  reply.json(200, {
    quantumTaskArn: t.arn,
    status: t.status,
    deviceArn: t.body.deviceArn,
    shots: t.body.shots,
    outputS3Bucket: t.body.outputS3Bucket,
    outputS3Directory: t.directory,
    createdAt: new Date().toISOString(),
    ...(t.status === 'FAILED' ? { failureReason: 'fake device failure' } : {}),
  });
}

/** S3 GET /{bucket}/{key} (path style): a stored object, or S3's NoSuchKey. */
function getObject(state: FakeBraketState, path: string, res: ServerResponse): void {
  const object = state.fake.objects.get(path.slice(1));
  if (object === undefined) {
    res.writeHead(404, { 'Content-Type': 'application/xml' });
    res.end(
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    );
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(object);
}

/** Answers one request (its body read whole as `raw`), after recording it. */
export function handleBraketRequest(
  state: FakeBraketState,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
): void {
  const { fake } = state;
  const url = new URL(req.url ?? '/', 'http://x');
  const path = decodeURIComponent(url.pathname);
  const key = `${req.method} ${path}`;
  const body: unknown = raw === '' ? undefined : JSON.parse(raw);
  fake.requests.push({
    method: req.method ?? '',
    path,
    body,
    authorization: String(req.headers.authorization ?? ''),
  });
  const reply: Reply = {
    json(code, payload, headers = {}) {
      res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    },
    error: (code, type, message) =>
      reply.json(code, { __type: type, message }, { 'x-amzn-ErrorType': type }),
  };
  if (fake.hang?.test(key)) return;
  if (!/Credential=test\//.test(String(req.headers.authorization))) {
    reply.error(
      403,
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    );
    return;
  }
  const failure = fake.failures.find((f) => f.times > 0 && f.match.test(key));
  if (failure) {
    failure.times--;
    reply.error(failure.status, failure.errorType, `scripted ${failure.errorType}`);
    return;
  }
  const cancel = /^\/quantum-task\/(.+)\/cancel$/.exec(path);
  const get = /^\/quantum-task\/(.+)$/.exec(path);
  if (req.method === 'POST' && path === '/quantum-task')
    createTask(state, body as CreateTaskBody, reply);
  else if (req.method === 'PUT' && cancel) cancelTask(state, cancel[1]!, reply);
  else if (req.method === 'GET' && get) getTask(state, get[1]!, reply);
  else if (req.method === 'GET') getObject(state, path, res);
  else reply.error(404, 'ResourceNotFoundException', `no route ${key}`);
}
