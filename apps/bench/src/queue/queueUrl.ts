import { echo, redactSecrets } from '@boltzmann/ising-core/internal';
import { BenchError } from '../benchError.js';
import type { QueueSpec } from '../benchCommand.js';

export type { QueueSpec } from '../benchCommand.js';

/** The environment variable the Redis password is read from (never from a flag: flags show in `ps`). */
export const PASSWORD_ENV = 'BENCH_REDIS_PASSWORD';

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

/** The queue's password as a secret to scrub from error lines (see ising-core `redactSecrets`). */
export function queueSecrets(queue: QueueSpec | undefined): Record<string, string> {
  return queue?.password === undefined ? {} : { queuePassword: queue.password };
}
