// Helpers shared by the Tiny Shakespeare loader tests. Not a test file, and not published
// (package.json "files" leaves out src/**/*Testkit.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import type { FetchLike } from './index.js';

/** A fetch that fails the test if called. */
export const noNetwork: FetchLike = () => {
  throw new Error('tests must not use the network');
};

// The global fetch is replaced by a failing one in every test; this keeps the real one for 127.0.0.1 only.
const realFetch = globalThis.fetch;
/** The real fetch, for http://127.0.0.1 only. */
export const localFetch: FetchLike = (url, init) =>
  url.startsWith('http://127.0.0.1:')
    ? realFetch(url, init)
    : Promise.reject(new Error(`refusing ${url}`));

/**
 * Gives every test of the calling file a fresh temporary folder (`sandbox.dir`), a failing
 * global fetch, `$XDG_CACHE_HOME` inside that folder and an empty `$BOLTZMANN_DATA_DIR`, so
 * nothing reaches the real network or the real per-user cache.
 */
export function useSandbox(): { readonly dir: string } {
  const sandbox = { dir: '' };
  beforeEach(() => {
    sandbox.dir = mkdtempSync(join(tmpdir(), 'boltzmann-datasets-'));
    vi.stubGlobal('fetch', noNetwork);
    vi.stubEnv('XDG_CACHE_HOME', join(sandbox.dir, 'xdg'));
    vi.stubEnv('BOLTZMANN_DATA_DIR', '');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
    rmSync(sandbox.dir, { recursive: true, force: true });
  });
  return sandbox;
}

/** A `node:http` server on 127.0.0.1 with its base URL; `close()` also drops open connections. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; base: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return { server, base, close };
}
