import { readFileSync } from 'node:fs';
import { echo, redactSecrets } from '@boltzmann/ising-core';
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { BenchError } from '../benchError.js';

/** The environment variable the Redis password is read from (never from a flag: flags show in `ps`). */
export const PASSWORD_ENV = 'BENCH_REDIS_PASSWORD';
/** Optional PEM file of the CA that signed a `rediss://` server's certificate (self-signed set-ups). */
export const CA_FILE_ENV = 'BENCH_REDIS_CA_FILE';
/** How long the start-up check waits for Redis before giving up with a coded error. */
export const CONNECT_TIMEOUT_MS = 5000;

/** Where the grid's queue lives: a parsed `--queue` URL plus the password from the environment. */
export interface QueueSpec {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
  readonly username?: string;
  /** Never printed, logged, hashed or written: see {@link maskedUrl} and {@link redactQueue}. */
  readonly password?: string;
  /** The URL with any password replaced by `***`, for messages. */
  readonly masked: string;
}

/**
 * Parses `redis://[user[:password]@]host[:port][/db]` or `rediss://…` (TLS). The password comes
 * from `$BENCH_REDIS_PASSWORD`; one written in the URL is accepted too but masked everywhere.
 *
 * @param raw the `--queue` value.
 * @param env the environment (the password variable).
 * @returns the spec, password included.
 * @throws BENCH_INVALID_OPTION for anything that is not such a URL (the message masks a password).
 * @example
 * parseQueueUrl('redis://127.0.0.1:6379/2').db; // 2
 */
export function parseQueueUrl(
  raw: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): QueueSpec {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--queue must be a redis://host:port/db or rediss://host:port/db URL, got ${echo(maskInText(raw), 120)}`,
    );
  }
  const bad = (why: string): BenchError =>
    new BenchError('BENCH_INVALID_OPTION', `--queue ${maskedUrl(url)}: ${why}`);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw bad('the scheme must be redis:// or rediss:// (TLS)');
  if (url.hostname === '') throw bad('a host is required');
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!/^\d*$/.test(dbText) || !Number.isInteger(db) || db > 10_000)
    throw bad(`the path must be a database number, got ${echo(dbText, 20)}`);
  if (url.search !== '' || url.hash !== '') throw bad('no query string or fragment is allowed');
  const fromUrl = url.password === '' ? undefined : decodeURIComponent(url.password);
  const fromEnv = env[PASSWORD_ENV];
  const password = fromEnv !== undefined && fromEnv !== '' ? fromEnv : fromUrl;
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    db,
    tls: url.protocol === 'rediss:',
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    masked: maskedUrl(url),
  };
}

function maskedUrl(url: URL): string {
  const user = url.username === '' ? '' : url.username;
  const auth = url.password !== '' ? `${user}:***@` : user !== '' ? `${user}@` : '';
  return `${url.protocol}//${auth}${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** Masks `:password@` in text that failed to parse as a URL. */
function maskInText(raw: string): string {
  return raw.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/**
 * Scrubs the queue's password from a line (the last line of defence for logs and errors).
 *
 * @example
 * redactQueue('auth failed for s3cret', spec); // 'auth failed for ***'
 */
export function redactQueue(line: string, spec: QueueSpec): string {
  return spec.password === undefined ? line : redactSecrets(line, { password: spec.password });
}

/**
 * Backoff for lost connections: 200 ms doubling to 5 s, with jitter so that many workers do not
 * reconnect in lock-step.
 */
export function reconnectDelay(attempt: number): number {
  return Math.round(Math.min(200 * 2 ** Math.min(attempt, 5), 5000) * (0.75 + Math.random() / 2));
}

/**
 * ioredis options of a long-lived connection (the queue, a worker): commands wait through an
 * outage instead of failing (BullMQ workers need `maxRetriesPerRequest: null`), and the client
 * reconnects with {@link reconnectDelay} for ever.
 */
export function redisOptions(spec: QueueSpec): RedisOptions {
  const ca = process.env[CA_FILE_ENV];
  return {
    host: spec.host,
    port: spec.port,
    db: spec.db,
    ...(spec.username !== undefined ? { username: spec.username } : {}),
    ...(spec.password !== undefined ? { password: spec.password } : {}),
    ...(spec.tls
      ? { tls: { servername: spec.host, ...(ca ? { ca: readFileSync(ca, 'utf8') } : {}) } }
      : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelay,
  };
}

const AUTH_FAILURE = /WRONGPASS|NOAUTH|invalid password|invalid username-password|AUTH failed/i;

/**
 * Checks, within `timeoutMs`, that Redis answers and accepts the credentials, before any queue
 * is opened on it: an unreachable host or a wrong password is a coded error, never a hang.
 *
 * @param spec from {@link parseQueueUrl}.
 * @param timeoutMs the bound (default 5 s).
 * @returns the server's version.
 * @throws BENCH_QUEUE_AUTH for a wrong or missing password; BENCH_QUEUE_UNREACHABLE when nothing
 *   answers in time (refused, unknown host, TLS failure, time-out). Both name the masked URL.
 */
export async function checkRedis(spec: QueueSpec, timeoutMs = CONNECT_TIMEOUT_MS): Promise<string> {
  const client = new Redis({
    ...redisOptions(spec),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    const info = await Promise.race([
      (async () => {
        await client.connect();
        return client.info('server');
      })(),
      timeout,
    ]);
    return /redis_version:([^\r\n]+)/.exec(info)?.[1] ?? 'unknown';
  } catch (error) {
    const why =
      (error instanceof Error ? error.message : String(error)) || lastError?.message || '';
    const detail = redactQueue(why.slice(0, 160), spec);
    if (AUTH_FAILURE.test(why) || AUTH_FAILURE.test(lastError?.message ?? '')) {
      throw new BenchError(
        'BENCH_QUEUE_AUTH',
        `Redis at ${spec.masked} refused the credentials (${detail}); set $${PASSWORD_ENV} to the server's password`,
      );
    }
    throw new BenchError(
      'BENCH_QUEUE_UNREACHABLE',
      `cannot reach Redis at ${spec.masked} (${detail}); is redis-server running there?`,
    );
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/**
 * A throttled warning for a connection's `error` events: ioredis reconnects by itself, the user
 * only needs to know it is happening (one line per `intervalMs`, password scrubbed).
 */
export function connectionWarner(
  spec: QueueSpec,
  log: (line: string) => void,
  intervalMs = 10_000,
): (error: Error) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    log(
      redactQueue(
        `warning: lost the connection to Redis at ${spec.masked} (${error.message.slice(0, 120)}); retrying with backoff`,
        spec,
      ),
    );
  };
}
