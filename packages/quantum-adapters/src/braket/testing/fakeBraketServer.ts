// A local fake of Amazon Braket (rest-json) and S3 (path style) for the adapter's tests: its device
// runs the submitted OpenQASM exactly (routes in fakeBraketRoutes.ts, types in fakeBraketTypes.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleBraketRequest } from './fakeBraketRoutes.js';
import type { FakeBraketState } from './fakeBraketRoutes.js';
import type { FakeBraket } from './fakeBraketTypes.js';

export type { BraketScriptedFailure, FakeBraket } from './fakeBraketTypes.js';

/** Starts the fake on 127.0.0.1 (ephemeral port). Requests not signed with access key `test` get 403. */
export async function startFakeBraket(options: { seed?: number } = {}): Promise<FakeBraket> {
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
  const state: FakeBraketState = { fake, byToken: new Map(), seed: options.seed ?? 1 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      try {
        handleBraketRequest(state, req, res, raw);
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
