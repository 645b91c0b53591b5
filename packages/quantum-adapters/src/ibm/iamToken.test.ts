import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../shared/testing/httpTraps.js';
import { rejection } from '../shared/testing/rejection.js';
import {
  API_KEY,
  clientOptions,
  expectNoLeaks,
  fake,
  qasm,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { createIamTokenSource, refreshMarginMs } from './iamToken.js';
import { createRuntimeClient } from './runtimeClient.js';

useFakeRuntime();
const { trap } = closeAfterEach();
const iam = () => fake.requests.filter((r) => r.path === '/identity/token');
const runtime = () => fake.requests.filter((r) => r.path.startsWith('/api/v1/'));

/** A token source whose IAM answers `expires_in` (as JSON text), on an injected clock. */
function source(expiresIn: unknown) {
  let now = 0;
  let served = 0;
  const tokens = createIamTokenSource({
    apiKey: API_KEY,
    iamEndpoint: 'http://iam.invalid/identity/token',
    timeoutMs: 1_000,
    maxResponseBytes: 1_000,
    now: () => now,
    fetch: async () =>
      new Response(`{"access_token":"t${++served}","expires_in":${expiresIn}}`, { status: 200 }),
  });
  return {
    tokens,
    served: () => served,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('IBM Cloud IAM token', () => {
  it('should exchange the key at IAM as a form, and send only the bearer token to Runtime', async () => {
    const client = createRuntimeClient(clientOptions());
    expect(await client.backendStatus('fake_line7')).toMatchObject({ state: true });
    const [exchange] = iam();
    expect(exchange).toMatchObject({ method: 'POST' });
    expect(exchange!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(exchange!.headers.accept).toBe('application/json');
    expect(new URLSearchParams(exchange!.body).get('grant_type')).toBe(
      'urn:ibm:params:oauth:grant-type:apikey',
    );
    expect(new URLSearchParams(exchange!.body).get('apikey')).toBe(API_KEY);
    expect(runtime()[0]!.headers.authorization).toBe(`Bearer ${fake.tokens[0]}`);
    expectNoLeaks();
  });

  it('should cache the token, and share one exchange among concurrent callers', async () => {
    const client = createRuntimeClient(clientOptions());
    await Promise.all(Array.from({ length: 6 }, () => client.backendStatus('fake_line7')));
    await client.backendConfiguration('fake_line7');
    expect(iam()).toHaveLength(1);
    expect(runtime()).toHaveLength(7);
  });

  it('should replace a token before it expires (10 % of its life or 5 min, at most half of it)', async () => {
    expect(refreshMarginMs(3_600_000)).toBe(360_000);
    expect(refreshMarginMs(1_200_000)).toBe(300_000);
    expect(refreshMarginMs(1_000)).toBe(500);
    // A 1 s token is kept as if it lived 60 s (IAM_TOKEN_LIFETIME_SECONDS); once Runtime refuses
    // it as expired, the 401 brings a fresh one.
    fake.tokenLifetimeSeconds = 1;
    const client = createRuntimeClient(clientOptions());
    await client.backendStatus('fake_line7');
    await client.backendStatus('fake_line7');
    expect(iam()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1_100));
    await client.backendStatus('fake_line7');
    expect(iam()).toHaveLength(2);
    expect(runtime().at(-1)!.headers.authorization).toBe(`Bearer ${fake.tokens[1]}`);
  });

  it('should refresh with an injected clock exactly at the margin', async () => {
    const { tokens, at } = source('3600');
    expect(await tokens.token()).toBe('t1');
    at(3_600_000 - 360_001);
    expect(await tokens.token()).toBe('t1');
    at(3_600_000 - 360_000);
    expect(await tokens.token()).toBe('t2');
    tokens.invalidate('t1');
    expect(await tokens.token()).toBe('t2');
    tokens.invalidate('t2');
    expect(await tokens.token()).toBe('t3');
    expect(tokens.redact(`a t1 b t3 ${API_KEY}`)).toBe('a *** b *** ***');
  });

  it('should refresh once on a 401 from Runtime, then fail with ADAPTER_AUTH', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.failures.push({ match: /^GET \/api\/v1\/backends\//, status: 401, times: 1 });
    await client.backendStatus('fake_line7');
    expect(iam()).toHaveLength(2);
    expect(runtime().map((r) => r.headers.authorization)).toEqual([
      `Bearer ${fake.tokens[0]}`,
      `Bearer ${fake.tokens[1]}`,
    ]);
    // Every token refused: one refresh, then auth, not retried.
    fake.failures.push({
      match: /^GET \/api\/v1\/backends\//,
      status: 401,
      times: 10,
      body: { errors: [{ message: `token rejected: ${fake.tokens[1]}` }] },
    });
    const e = await rejection(client.backendStatus('fake_line7'));
    expect(e).toMatchObject({ code: 'ADAPTER_AUTH', reason: 'auth', retryable: false });
    expect(e.message).toContain('a freshly exchanged IAM token was refused too');
    expect(e.message).toContain('token rejected: ***');
    expect(iam()).toHaveLength(3);
    expect(runtime()).toHaveLength(4);
    expectNoLeaks();
  });

  it('should fail with ADAPTER_AUTH when IAM refuses the key (400), without retrying or echoing it', async () => {
    const lines: string[] = [];
    const client = createRuntimeClient(
      clientOptions({ apiKey: `${API_KEY}-wrong`, debug: (l) => lines.push(l) }),
    );
    const e = await rejection(client.backendStatus('fake_line7'));
    expect(e).toMatchObject({ code: 'ADAPTER_AUTH', retryable: false, status: 400 });
    expect(e.message).toContain('Provided API key could not be found');
    expect(e.message).toContain('BXNIM0415E');
    expect(e.message).not.toContain(API_KEY);
    expect(lines.join('\n')).not.toContain(API_KEY);
    expect(iam()).toHaveLength(1);
    expect(runtime()).toHaveLength(0);
  });

  it('should report a malformed IAM answer as ADAPTER_MALFORMED without echoing it', async () => {
    const client = createRuntimeClient(clientOptions());
    for (const body of [
      { access_token: 'leaky-token-1' },
      { access_token: 'leaky-token-2', expires_in: -5 },
      { access_token: 'leaky-token-3', expires_in: 3600, token_type: 'mac' },
      { access_token: 'leaky token 4', expires_in: 3600 },
      ['leaky-token-5'],
    ]) {
      fake.failures.push({ match: /^POST \/identity\/token$/, status: 200, body, times: 1 });
      const e = await rejection(client.backendStatus('fake_line7'));
      expect(e).toMatchObject({ code: 'ADAPTER_MALFORMED', retryable: false });
      expect(e.message).toContain('without a usable token');
      expect(e.message).not.toContain('leaky');
    }
    expect(runtime()).toHaveLength(0);
  });

  it('should retry IAM on 503 and 429, and then submit a job once (nothing had reached Runtime)', async () => {
    const client = createRuntimeClient(clientOptions());
    fake.failures.push({ match: /^POST \/identity\/token$/, status: 503, times: 1 });
    fake.failures.push({
      match: /^POST \/identity\/token$/,
      status: 429,
      retryAfter: '0',
      times: 1,
    });
    const { id } = await client.submitSamplerJob({
      backend: 'fake_line7',
      pubs: [[qasm(2), null, 10]],
    });
    expect(id).toBe('job-1');
    expect(iam()).toHaveLength(3);
    expect(runtime().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('should refuse an IAM redirect to another origin, so the key never reaches it', async () => {
    const attacker = await trap();
    fake.redirects.push({
      match: /^POST \/identity\/token$/,
      status: 307,
      to: attacker.url,
      times: 1,
    });
    const e = await rejection(createRuntimeClient(clientOptions()).backendStatus('fake_line7'));
    expect(e).toMatchObject({ code: 'ADAPTER_REDIRECT_REFUSED', retryable: false });
    expect(e.message).toContain(attacker.url);
    expect(e.message).not.toContain(API_KEY);
    expect(attacker.requests).toEqual([]);
    expect(runtime()).toHaveLength(0);
  });

  it('should give up waiting for a hanging exchange when its caller aborts', async () => {
    fake.hang = /^POST \/identity\/token$/;
    const client = createRuntimeClient(clientOptions({ requestTimeoutMs: 10_000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const e = await rejection(client.backendStatus('fake_line7', controller.signal));
    expect(e).toMatchObject({ code: 'ADAPTER_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('IAM expires_in out of range', () => {
  it('clamps a huge expires_in (1e308) to 24 h instead of exchanging before every request', async () => {
    const s = source('1e308');
    await s.tokens.token();
    s.at(60_000);
    await s.tokens.token();
    expect(s.served()).toBe(1);
    s.at(24 * 3_600_000);
    await s.tokens.token();
    expect(s.served()).toBe(2);
  });

  it('clamps a tiny expires_in (0.001) to 60 s, so the token is reused for 30 s', async () => {
    const s = source('0.001');
    await s.tokens.token();
    s.at(29_999);
    await s.tokens.token();
    expect(s.served()).toBe(1);
    s.at(30_000);
    await s.tokens.token();
    expect(s.served()).toBe(2);
  });

  it('still refuses a negative, zero or non-numeric expires_in as malformed', async () => {
    for (const bad of ['-5', '0', '"3600"', 'null'])
      expect(await rejection(source(bad).tokens.token()), bad).toMatchObject({
        code: 'ADAPTER_MALFORMED',
      });
  });
});
