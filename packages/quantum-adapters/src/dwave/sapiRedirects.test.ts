import { estimateBatch } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, redirectTo } from '../shared/testing/httpTraps.js';
import type { Trap } from '../shared/testing/httpTraps.js';
import { rejection } from '../shared/testing/rejection.js';
import { batch, noRetry, solver, TOKEN } from './testing/sapiFixtures.js';
import { adapterErrorOf, createDwaveSampler, createSapiClient } from '../index.js';
import type { SapiJob } from '../index.js';

const job: SapiJob = {
  solver: solver.identity,
  type: 'ising',
  data: { format: 'qp', lin: '', quad: '', offset: 0 },
  params: { num_reads: 1 },
};
const { trap } = closeAfterEach();

/** The token never reached `second`, and the refusal names its origin but not the token. */
function expectRefused(
  error: { code: string; retryable: boolean; message: string } | undefined,
  second: Trap,
): void {
  expect(error).toMatchObject({ code: 'ADAPTER_REDIRECT_REFUSED', retryable: false });
  expect(error!.message).toContain(second.url);
  expect(error!.message).not.toContain(TOKEN);
  expect(second.requests).toEqual([]);
}

describe('SAPI redirects', () => {
  it('should refuse a 302 on GET solvers/remote/ to another origin without sending the token there', async () => {
    const second = await trap();
    const first = await trap(redirectTo(302, second.url));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: noRetry,
    });
    expectRefused(await rejection(client.listSolvers()), second);
    expect(first.requests.map((r) => r.headers['x-auth-token'])).toEqual([TOKEN]);
  });

  it('should refuse a 307 on POST problems/ (with its body) to another origin', async () => {
    const second = await trap();
    const first = await trap(redirectTo(307, second.url));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expectRefused(await rejection(client.submitProblems([job])), second);
    expect(first.requests).toHaveLength(1);
    expect(first.requests[0]!.method).toBe('POST');
  });

  it('should refuse both through the dwave sampler and estimateBatch', async () => {
    const second = await trap();
    const first = await trap(redirectTo(302, second.url));
    const listing = createDwaveSampler({
      token: TOKEN,
      endpoint: `${first.url}/sapi/v2/`,
      retry: noRetry,
    });
    let caught: unknown;
    await Promise.resolve(estimateBatch(listing, batch())).catch((e: unknown) => (caught = e));
    expectRefused(adapterErrorOf(caught), second);

    const posting = await trap(redirectTo(307, second.url));
    const submitting = createDwaveSampler({
      token: TOKEN,
      endpoint: `${posting.url}/sapi/v2/`,
      solverDefinition: solver,
      retry: noRetry,
    });
    caught = undefined;
    await Promise.resolve(estimateBatch(submitting, batch())).catch((e: unknown) => (caught = e));
    expectRefused(adapterErrorOf(caught), second);
    expect(posting.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /sapi/v2/problems/',
    ]);
  });

  it('should follow same-origin redirects: 307 keeps method and body, 303 after POST becomes a GET without body', async () => {
    const server = await trap((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/old/'))
        return redirectTo(307, (p) => p.replace('/old/', '/sapi/v2/'))(req, res);
      if (url.startsWith('/see-other/'))
        return redirectTo(303, (p) => p.replace('/see-other/', '/sapi/v2/'))(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(url.includes('solvers') ? [solver] : [{ id: 'p1', status: 'PENDING' }]),
      );
    });
    const moved = createSapiClient({
      token: TOKEN,
      endpoint: `${server.url}/old/`,
      retry: noRetry,
    });
    expect((await moved.listSolvers()).map((s) => s.identity.name)).toEqual([solver.identity.name]);
    expect((await moved.submitProblems([job]))[0]).toMatchObject({ id: 'p1' });
    const posted = server.requests.slice(2);
    expect(posted.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /old/problems/',
      'POST /sapi/v2/problems/',
    ]);
    expect(posted[1]!.body).toBe(posted[0]!.body);
    expect(posted[1]!.headers['x-auth-token']).toBe(TOKEN);

    const seeOther = createSapiClient({
      token: TOKEN,
      endpoint: `${server.url}/see-other/`,
      retry: noRetry,
    });
    await seeOther.submitProblems([job]);
    const last = server.requests.at(-1)!;
    expect([last.method, last.url, last.body, last.headers['content-type']]).toEqual([
      'GET',
      '/sapi/v2/problems/',
      '',
      undefined,
    ]);
  });

  it('should refuse a redirect loop, and a redirect without Location', async () => {
    const loop = await trap(redirectTo(302, (p) => p));
    const client = createSapiClient({
      token: TOKEN,
      endpoint: `${loop.url}/sapi/v2/`,
      retry: noRetry,
    });
    expect(await rejection(client.listSolvers())).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
      message: expect.stringContaining('more than 5 times'),
    });
    expect(loop.requests).toHaveLength(6);
    const bare = await trap((_req, res) => {
      res.writeHead(301);
      res.end();
    });
    const noLocation = createSapiClient({
      token: TOKEN,
      endpoint: `${bare.url}/sapi/v2/`,
      retry: noRetry,
    });
    expect(await rejection(noLocation.listSolvers())).toMatchObject({
      code: 'ADAPTER_REDIRECT_REFUSED',
      message: expect.stringContaining('without a Location'),
    });
  });
});
