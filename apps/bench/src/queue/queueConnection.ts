import { readFileSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import { BenchError } from '../benchError.js';
import { PASSWORD_ENV, redactQueue } from './queueUrl.js';
import type { QueueSpec } from './queueUrl.js';

/** Optional PEM file of the CA that signed a `rediss://` server's certificate (self-signed set-ups). */
export const CA_FILE_ENV = 'BENCH_REDIS_CA_FILE';
/** How long the start-up check waits for Redis before giving up with a coded error. */
export const CONNECT_TIMEOUT_MS = 5000;

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
    ...(spec.tls ? { tls: ca ? { ca: readFileSync(ca, 'utf8') } : {} } : {}),
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
  // Loaded here, not at the top: `--queue` is parsed with the other flags, before any of this.
  const { Redis } = await import('ioredis');
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
    const thrown = error instanceof Error ? error.message : String(error);
    // ioredis rejects with "Connection is closed." after the socket error it emitted: show that.
    const why = /^Connection is closed/.test(thrown) && lastError ? lastError.message : thrown;
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

/** Socket errors: the connection is down, and ioredis reconnects by itself. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_MESSAGE =
  /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Stream isn't writeable|max retries per request/i;

/** Whether an `error` event of a queue connection is a lost connection (else Redis answered). */
export function isConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) || CONNECTION_MESSAGE.test(error.message)
  );
}

/**
 * A throttled warning for a connection's `error` events: ioredis reconnects by itself, the user
 * only needs to know it is happening (one line per `intervalMs`, password scrubbed). An error
 * that is no lost connection (a script or command Redis refused, which a malformed job in the
 * queue causes) is named as what it is.
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
    const why = error.message.slice(0, 120);
    log(
      redactQueue(
        isConnectionError(error)
          ? `warning: lost the connection to Redis at ${spec.masked} (${why}); retrying with backoff`
          : `warning: a queue command on Redis at ${spec.masked} failed (${why}); the connection is up: a malformed job in the queue can cause this (\`bench status\` lists the failed ones)`,
        spec,
      ),
    );
  };
}

/** Waits that end early when a signal aborts (see {@link abortableWaits}). */
export interface AbortableWaits {
  /** `work`'s outcome, or null when the signal aborts first (`work` is then left to settle). */
  race<T>(work: Promise<T>): Promise<T | null>;
  /** `ms` milliseconds, or less when the signal aborts; its timer is cleared either way. */
  pause(ms: number): Promise<void>;
  /** Removes the abort listener. */
  dispose(): void;
}

/**
 * Waits on a long-lived connection (a look at the queue that may sit through an outage, the
 * pause between two looks) that Ctrl-C ends early. All of them share a single abort listener,
 * and none leaves a timer behind: any number of waits adds nothing to the signal or the event
 * loop, so a command exits by itself once its connections are closed.
 *
 * @param signal ends every wait, current and future, when it aborts.
 * @returns the waits; call `dispose` when done with them.
 */
export function abortableWaits(signal: AbortSignal | undefined): AbortableWaits {
  const wakers = new Set<() => void>();
  const onAbort = (): void => {
    for (const wake of [...wakers]) wake();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    race: <T>(work: Promise<T>) =>
      signal?.aborted
        ? Promise.resolve(null)
        : new Promise<T | null>((resolve, reject) => {
            const wake = (): void => resolve(null);
            wakers.add(wake);
            work.then(resolve, reject).finally(() => wakers.delete(wake));
          }),
    pause: (ms) =>
      signal?.aborted
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const wake = (): void => {
              clearTimeout(timer);
              wakers.delete(wake);
              resolve();
            };
            const timer = setTimeout(wake, ms);
            wakers.add(wake);
          }),
    dispose: () => signal?.removeEventListener('abort', onAbort),
  };
}
