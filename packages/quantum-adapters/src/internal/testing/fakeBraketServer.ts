import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRng } from '@boltzmann/ising-core';
import { drawFromCdf } from './boltzmannDraw.js';
import { simulateQasm } from './qasmInterpreter.js';

/** The CreateQuantumTask fields the fake reads; the handler checks that each one is present. */
interface CreateTaskBody {
  readonly action: string;
  readonly clientToken: string;
  readonly deviceArn: string;
  readonly outputS3Bucket: string;
  readonly outputS3KeyPrefix: string;
  readonly shots: number;
  readonly [field: string]: unknown;
}

interface FakeTask {
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

/** Starts the fake on 127.0.0.1 (ephemeral port). Requests not signed with access key `test` get 403. */
export async function startFakeBraket(options: { seed?: number } = {}): Promise<FakeBraket> {
  let seed = options.seed ?? 1;
  const byToken = new Map<string, string>();
  const fake: FakeBraket = {
    url: '',
    requests: [],
    tasks: new Map(),
    objects: new Map(),
    failures: [],
    completeAfterMs: 20,
    outcome: 'COMPLETED',
    resultForm: 'measurements',
    close: async () => {},
  };
  const advance = (t: FakeTask): FakeTask => {
    if ((t.status === 'QUEUED' || t.status === 'RUNNING') && Date.now() >= t.readyAt) {
      t.status = t.outcome;
      if (t.status === 'COMPLETED') {
        const result = resultsJson(t, fake.resultForm, seed++);
        const doc = fake.tamperResult ? fake.tamperResult(result) : result;
        fake.objects.set(
          `${t.body.outputS3Bucket}/${t.directory}/results.json`,
          typeof doc === 'string' ? doc : JSON.stringify(doc),
        );
      }
    }
    return t;
  };
  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
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
    const json = (code: number, payload: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    const error = (code: number, type: string, message: string): void =>
      json(code, { __type: type, message }, { 'x-amzn-ErrorType': type });
    if (fake.hang?.test(key)) return;
    if (!/Credential=test\//.test(String(req.headers.authorization))) {
      error(
        403,
        'UnrecognizedClientException',
        'The security token included in the request is invalid.',
      );
      return;
    }
    const failure = fake.failures.find((f) => f.times > 0 && f.match.test(key));
    if (failure) {
      failure.times--;
      error(failure.status, failure.errorType, `scripted ${failure.errorType}`);
      return;
    }
    if (req.method === 'POST' && path === '/quantum-task') {
      const b = body as CreateTaskBody;
      for (const field of [
        'action',
        'clientToken',
        'deviceArn',
        'outputS3Bucket',
        'outputS3KeyPrefix',
        'shots',
      ]) {
        if (b[field] === undefined) {
          error(400, 'ValidationException', `missing ${field}`);
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
      json(201, { quantumTaskArn: arn });
      return;
    }
    const cancel = /^\/quantum-task\/(.+)\/cancel$/.exec(path);
    if (req.method === 'PUT' && cancel) {
      const t = fake.tasks.get(cancel[1]!);
      if (!t) {
        error(404, 'ResourceNotFoundException', 'no such task');
        return;
      }
      if (t.status === 'QUEUED' || t.status === 'RUNNING') t.status = t.outcome = 'CANCELLED';
      json(200, { quantumTaskArn: t.arn, cancellationStatus: 'CANCELLED' });
      return;
    }
    const get = /^\/quantum-task\/(.+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const t = fake.tasks.get(get[1]!);
      if (!t) {
        error(404, 'ResourceNotFoundException', 'no such task');
        return;
      }
      advance(t);
      json(200, {
        quantumTaskArn: t.arn,
        status: t.status,
        deviceArn: t.body.deviceArn,
        shots: t.body.shots,
        outputS3Bucket: t.body.outputS3Bucket,
        outputS3Directory: t.directory,
        createdAt: new Date().toISOString(),
        ...(t.status === 'FAILED' ? { failureReason: 'fake device failure' } : {}),
      });
      return;
    }
    if (req.method === 'GET') {
      const object = fake.objects.get(path.slice(1));
      if (object === undefined) {
        res.writeHead(404, { 'Content-Type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        );
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(object);
      return;
    }
    error(404, 'ResourceNotFoundException', `no route ${key}`);
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      try {
        handle(req, res, raw);
      } catch (e) {
        res.writeHead(500, { 'x-amzn-ErrorType': 'InternalServiceException' });
        res.end(JSON.stringify({ message: String(e) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return fake;
}
