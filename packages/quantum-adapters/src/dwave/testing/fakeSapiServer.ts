// A local fake of the D-Wave SAPI v3 subset the adapter uses, sampling submitted problems exactly
// (routes in fakeSapiRoutes.ts, types in fakeSapiTypes.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SapiSolver } from '../sapiTypes.js';
import { handleSapiRequest } from './fakeSapiRoutes.js';
import type { FakeSapiState } from './fakeSapiRoutes.js';
import type { FakeSapi } from './fakeSapiTypes.js';
import { fakeChimeraSolver } from './fakeSolvers.js';

export type { FakeSapi } from './fakeSapiTypes.js';
export type { ScriptedFailure } from '../../shared/testing/scriptedFailure.js';

/**
 * Starts the fake on 127.0.0.1 with an ephemeral port. Requests without the right `X-Auth-Token`
 * get 401 with a body that echoes the token they sent (to prove clients redact it).
 */
export async function startFakeSapi(options: {
  token: string;
  solvers?: SapiSolver[];
  seed?: number;
}): Promise<FakeSapi> {
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
  const state: FakeSapiState = {
    fake,
    token: options.token,
    solvers: options.solvers ?? [fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 })],
    nextId: 0,
    seed: options.seed ?? 1,
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      handleSapiRequest(state, req, res, raw).catch((e: unknown) => {
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
