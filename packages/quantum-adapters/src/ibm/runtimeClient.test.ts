import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rejection } from '../shared/testing/rejection.js';
import {
  API_KEY,
  clientOptions,
  CRN,
  fake,
  qasm,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { createRuntimeClient } from './runtimeClient.js';
import { DEFAULT_IBM_API_VERSION, DEFAULT_IBM_MAX_RESPONSE_BYTES } from './runtimeOptions.js';
import { parseJobStatus } from './runtimeParse.js';
import type { RuntimeClientOptions } from './runtimeTypes.js';

useFakeRuntime();
const runtime = () => fake.requests.filter((r) => r.path.startsWith('/api/v1/'));
const lastBody = (method: string) =>
  JSON.parse(
    runtime()
      .filter((r) => r.method === method)
      .at(-1)!.body,
  ) as Record<string, unknown>;

/** A fetch that answers IAM and Runtime without any network, recording the URLs it was given. */
function offlineFetch(urls: string[]): typeof fetch {
  return async (input) => {
    const url = String(input);
    urls.push(url);
    const body = url.endsWith('/identity/token')
      ? { access_token: 'offline-token', expires_in: 3600, token_type: 'Bearer' }
      : { state: true, status: 'active' };
    return new Response(JSON.stringify(body), { status: 200 });
  };
}

describe('Runtime client requests', () => {
  it('should send Bearer, Service-CRN, IBM-API-Version and JSON headers on every call', async () => {
    const client = createRuntimeClient(clientOptions());
    expect(client.apiVersion).toBe(DEFAULT_IBM_API_VERSION);
    expect(DEFAULT_IBM_API_VERSION).toBe('2026-04-15');
    expect(DEFAULT_IBM_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
    await client.backendConfiguration('fake_line7');
    await client.submitSamplerJob({ backend: 'fake_line7', pubs: [[qasm(2), null, 5]] });
    for (const r of runtime()) {
      expect(r.headers.authorization).toBe(`Bearer ${fake.tokens[0]}`);
      expect(r.headers['service-crn']).toBe(CRN);
      expect(r.headers['ibm-api-version']).toBe('2026-04-15');
      expect(r.headers.accept).toBe('application/json');
    }
    expect(runtime()[1]!.headers['content-type']).toBe('application/json');
    const dated = createRuntimeClient(clientOptions({ apiVersion: '2025-05-01' }));
    await dated.backendStatus('fake_line7');
    expect(runtime().at(-1)!.headers['ibm-api-version']).toBe('2025-05-01');
  });

  it('should use the region base URLs and the real IAM URL by default (offline fetch)', async () => {
    for (const [region, base] of [
      [undefined, 'https://quantum.cloud.ibm.com/api/v1/'],
      ['us-east', 'https://quantum.cloud.ibm.com/api/v1/'],
      ['eu-de', 'https://eu-de.quantum.cloud.ibm.com/api/v1/'],
    ] as const) {
      const urls: string[] = [];
      const client = createRuntimeClient({
        apiKey: API_KEY,
        serviceCrn: CRN,
        region,
        fetch: offlineFetch(urls),
      });
      expect(client.endpoint).toBe(base);
      await client.backendStatus('ibm_fez');
      expect(urls).toEqual([
        'https://iam.cloud.ibm.com/identity/token',
        `${base}backends/ibm_fez/status`,
      ]);
    }
  });

  it('should read configuration, properties (undefined on 404) and status', async () => {
    const client = createRuntimeClient(clientOptions());
    const config = await client.backendConfiguration('fake_line7');
    expect(config).toMatchObject({ backend_name: 'fake_line7', n_qubits: 7 });
    expect(config.coupling_map).toContainEqual([0, 1]);
    expect((await client.backendProperties('fake_line7'))?.qubits).toHaveLength(7);
    expect(await client.backendProperties('fake_sim')).toBeUndefined();
    expect(await client.backendStatus('fake_sim')).toMatchObject({ state: true, status: 'active' });
    expect(await rejection(client.backendConfiguration('ibm_nowhere'))).toMatchObject({
      code: 'ADAPTER_NOT_FOUND',
      retryable: false,
    });
    fake.failures.push({
      match: /configuration$/,
      status: 200,
      body: { backend_name: 'x', n_qubits: 2, basis_gates: ['cz'], coupling_map: [[0, 5]] },
      times: 1,
    });
    expect(await rejection(client.backendConfiguration('fake_line7'))).toMatchObject({
      code: 'ADAPTER_MALFORMED',
      message: expect.stringContaining('coupling_map'),
    });
  });

  it('should open a batch session with max_ttl and close it with accepting_jobs: false', async () => {
    const client = createRuntimeClient(clientOptions());
    const session = await client.createSession({
      backend: 'fake_line7',
      mode: 'batch',
      maxTtlSeconds: 600,
    });
    expect(session.id).toBe('session-1');
    expect(lastBody('POST')).toEqual({ mode: 'batch', backend: 'fake_line7', max_ttl: 600 });
    await client.closeSession(session.id);
    expect(lastBody('PATCH')).toEqual({ accepting_jobs: false });
    expect(fake.sessions.get('session-1')!.acceptingJobs).toBe(false);
    await client.closeSession('session-unknown'); // a 404 means nothing is left to close
    expect(
      await rejection(client.createSession({ backend: 'fake_line7', mode: 'exclusive' as never })),
    ).toMatchObject({ code: 'ADAPTER_INVALID_ARGUMENT' });
  });

  it('should submit a Sampler V2 job in the documented shape, and report service warnings', async () => {
    const lines: string[] = [];
    const client = createRuntimeClient(clientOptions({ debug: (l) => lines.push(l) }));
    const { id: sessionId } = await client.createSession({ backend: 'fake_line7', mode: 'batch' });
    fake.submitWarning = 'Your pending jobs may exceed the remaining quota';
    const pubs = [
      [qasm(2), { theta: 0.5 }, 16],
      [qasm(3), null, 8],
    ] as const;
    const job = await client.submitSamplerJob({
      backend: 'fake_line7',
      pubs,
      sessionId,
      tags: ['boltzmann'],
      options: { default_shots: 16, dynamical_decoupling: { enable: true } },
      maxExecutionTimeSeconds: 300,
    });
    expect(job).toEqual({
      id: 'job-1',
      warnings: ['Your pending jobs may exceed the remaining quota'],
    });
    expect(lines.some((l) => l.includes('warning') && l.includes('remaining quota'))).toBe(true);
    expect(lastBody('POST')).toEqual({
      program_id: 'sampler',
      backend: 'fake_line7',
      params: {
        version: '2',
        pubs: JSON.parse(JSON.stringify(pubs)),
        options: { default_shots: 16, dynamical_decoupling: { enable: true } },
      },
      session_id: sessionId,
      tags: ['boltzmann'],
      cost: 300,
    });
    const before = fake.requests.length;
    for (const bad of [
      { backend: '', pubs },
      { backend: 'fake_line7', pubs: [] },
      { backend: 'fake_line7', pubs: [['', null, 5]] },
      { backend: 'fake_line7', pubs: [[qasm(2), null, 0]] },
      { backend: 'fake_line7', pubs: [[qasm(2), 'theta', 5]] },
      { backend: 'fake_line7', pubs, maxExecutionTimeSeconds: 0 },
      { backend: 'fake_line7', pubs, maxExecutionTimeSeconds: 10_801 },
      { backend: 'fake_line7', pubs, maxExecutionTimeSeconds: 2.5 },
    ])
      expect(await rejection(client.submitSamplerJob(bad as never))).toMatchObject({
        code: 'ADAPTER_INVALID_ARGUMENT',
      });
    expect(fake.requests).toHaveLength(before);
  });

  it('should follow a job to DONE, read its results and metrics, and ignore cancelling it then', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.completeAfterMs = 1_000;
    const { id } = await client.submitSamplerJob({
      backend: 'fake_line7',
      pubs: [[qasm(2), null, 40]],
    });
    expect(await client.jobStatus(id)).toEqual({ status: 'QUEUED' });
    await new Promise((r) => setTimeout(r, 520));
    expect(await client.jobStatus(id)).toEqual({ status: 'RUNNING' });
    await new Promise((r) => setTimeout(r, 520));
    expect(await client.jobStatus(id)).toEqual({ status: 'DONE' });
    const results = (await client.jobResults(id)) as { results: { data: unknown }[] };
    expect(results.results[0]!.data).toMatchObject({ c: { num_bits: 2 } });
    expect(await client.jobMetrics(id)).toMatchObject({ quantumSeconds: 0.04 });
    await client.cancelJob(id); // 409: it already ended
    expect(runtime().at(-1)!.path).toBe(`/api/v1/jobs/${id}/cancel`);
    expect(await rejection(client.jobStatus('job-404'))).toMatchObject({
      code: 'ADAPTER_NOT_FOUND',
    });
  });

  it('should map job states case-insensitively and refuse unknown ones', () => {
    const of = (body: unknown) => parseJobStatus(body, 'GET jobs/x');
    expect(of({ state: { status: 'Queued' } })).toEqual({ status: 'QUEUED' });
    expect(of({ state: { status: 'RUNNING' } })).toEqual({ status: 'RUNNING' });
    expect(of({ status: 'completed' })).toEqual({ status: 'DONE' });
    expect(of({ state: { status: 'Failed', reason: 'bad gate', reason_code: 1517 } })).toEqual({
      status: 'ERROR',
      reason: 'bad gate; code 1517',
    });
    expect(of({ state: { status: 'Cancelled - Ran too long' } })).toEqual({
      status: 'CANCELLED',
      reason: 'Ran too long',
    });
    for (const body of [{ state: { status: 'Paused' } }, { state: {} }, null, 'Completed'])
      expect(() => of(body)).toThrow(expect.objectContaining({ code: 'ADAPTER_MALFORMED' }));
  });
});

describe('Runtime client options', () => {
  const saved = { key: process.env.IBM_CLOUD_API_KEY, crn: process.env.IBM_QUANTUM_CRN };
  beforeEach(() => {
    delete process.env.IBM_CLOUD_API_KEY;
    delete process.env.IBM_QUANTUM_CRN;
  });
  afterEach(() => {
    for (const [name, value] of [
      ['IBM_CLOUD_API_KEY', saved.key],
      ['IBM_QUANTUM_CRN', saved.crn],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const make = (o: RuntimeClientOptions) => () => createRuntimeClient(o);
  const invalid = (fragment: string) =>
    expect.objectContaining({
      code: 'ADAPTER_INVALID_ARGUMENT',
      retryable: false,
      message: expect.stringContaining(fragment),
    });

  it('should refuse bad options at creation with coded errors', () => {
    const base = { apiKey: API_KEY, serviceCrn: CRN };
    const cases: [RuntimeClientOptions, string][] = [
      [{ ...base, region: 'us-south' }, 'region must be one of "us-east", "eu-de"'],
      [{ ...base, region: 'eu-de.evil.example/#' }, 'region must be one of'],
      [
        { ...base, endpoint: 'ftp://quantum.example/api/v1/' },
        'endpoint must be an http: or https: URL',
      ],
      [{ ...base, iamEndpoint: 'not a url' }, 'iamEndpoint must be an absolute http(s) URL'],
      [{ ...base, apiVersion: '2026-4-15' }, 'apiVersion must be a date YYYY-MM-DD'],
      [{ ...base, apiVersion: '2026-02-30' }, 'apiVersion must be a date YYYY-MM-DD'],
      [{ apiKey: API_KEY }, 'serviceCrn is required'],
      [{ ...base, serviceCrn: 'instance 42' }, 'serviceCrn must be an instance CRN'],
      [{ ...base, maxResponseBytes: 0 }, 'maxResponseBytes must be a positive integer'],
      [{ ...base, requestTimeoutMs: -1 }, 'requestTimeoutMs must be a positive integer'],
      [{ ...base, retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
    ];
    for (const [options, fragment] of cases)
      expect(make(options), fragment).toThrow(invalid(fragment));
    let caught: unknown;
    try {
      createRuntimeClient({ apiKey: 1234567 as never, serviceCrn: CRN });
    } catch (e) {
      caught = e;
    }
    expect(caught).toEqual(invalid('apiKey must be a string'));
    expect((caught as Error).message).not.toContain('1234567');
  });

  it('should need an API key (or a fetch override), and read both from the environment', async () => {
    expect(make({ serviceCrn: CRN })).toThrow(
      expect.objectContaining({ code: 'ADAPTER_AUTH', retryable: false }),
    );
    expect(make({ serviceCrn: CRN, apiKey: '' })).toThrow(
      expect.objectContaining({ code: 'ADAPTER_AUTH' }),
    );
    process.env.IBM_CLOUD_API_KEY = API_KEY;
    process.env.IBM_QUANTUM_CRN = CRN;
    const { apiKey: _k, serviceCrn: _c, ...rest } = clientOptions();
    await createRuntimeClient(rest).backendStatus('fake_line7');
    expect(fake.requests.at(-1)!.headers['service-crn']).toBe(CRN);
    expect(fake.tokens).toHaveLength(1);
    delete process.env.IBM_CLOUD_API_KEY;
    const urls: string[] = [];
    const keyless = createRuntimeClient({ serviceCrn: CRN, fetch: offlineFetch(urls) });
    await keyless.backendStatus('ibm_fez');
    expect(urls).toEqual(['https://quantum.cloud.ibm.com/api/v1/backends/ibm_fez/status']);
    const e = await rejection(
      createRuntimeClient({ ...rest, apiKey: undefined, fetch }).backendStatus('fake_line7'),
    );
    expect(e).toMatchObject({
      code: 'ADAPTER_AUTH',
      message: expect.stringContaining('no IBM Cloud API key'),
    });
  });
});
