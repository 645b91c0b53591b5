/*
 * Test helper: a throw-away redis-server on 127.0.0.1 (Debian's `redis-server`, or the binary in
 * $BENCH_REDIS_SERVER), on a free port, with its files in a temporary folder. Tests that stop,
 * restart or password-protect Redis start their own; `.ci/run` also starts one for the suite.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server child process. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0` (`rediss://` with TLS; no password in it). */
  readonly url: string;
  /** Stops it (SIGTERM: the append-only file is flushed) and waits for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder (its data back when `persist`). */
  start(): Promise<void>;
}

/** The redis-server binary the tests use. */
export const redisServerBin = (): string => process.env.BENCH_REDIS_SERVER ?? 'redis-server';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts redis-server on a free loopback port and waits (at most 10 s) until it accepts
 * connections.
 *
 * @param options `password` sets `requirepass`; `persist` turns the append-only file on (fsync
 *   always), so a stop and start keeps the queue.
 */
export async function startRedisServer(
  options: {
    password?: string;
    persist?: boolean;
    /** PEM files: the server then listens with TLS only (`rediss://`). */
    tls?: { cert: string; key: string; ca: string };
  } = {},
): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  let child: ChildProcess | undefined;
  const args = [
    '--bind',
    '127.0.0.1',
    ...(options.tls
      ? [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          options.tls.cert,
          '--tls-key-file',
          options.tls.key,
          '--tls-ca-cert-file',
          options.tls.ca,
          '--tls-auth-clients',
          'no',
        ]
      : ['--port', String(port)]),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.persist ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--protected-mode',
    'yes',
    ...(options.password ? ['--requirepass', options.password] : []),
  ];
  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const proc = spawn(redisServerBin(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let output = '';
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`redis-server did not start within 10 s: ${output.slice(-500)}`));
      }, 10_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      proc.on('exit', (code) => {
        clearTimeout(timer);
        reject(
          new Error(`redis-server exited (${code}) before it was ready: ${output.slice(-500)}`),
        );
      });
    });
  await start();
  return {
    port,
    url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}/0`,
    stop: () =>
      new Promise((resolve) => {
        const proc = child;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
    start,
  };
}

/**
 * The suite's Redis when `.ci/run` started one (`$BENCH_TEST_REDIS_URL`), on database `db`
 * emptied first, else a throw-away server of this test's own.
 *
 * @returns its URL and how to let it go.
 */
export async function testRedis(db: number): Promise<{ url: string; stop(): Promise<void> }> {
  const shared = process.env.BENCH_TEST_REDIS_URL;
  if (shared === undefined || shared === '') return startRedisServer();
  const url = new URL(shared);
  url.pathname = `/${db}`;
  const { Redis } = await import('ioredis');
  const client = new Redis(url.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  await client.quit();
  return { url: url.toString(), stop: async () => undefined };
}
