import { codeOf } from '@boltzmann/ising-core/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchError } from '../benchError.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { checkRedis, connectionWarner } from './queueConnection.js';
import { parseQueueUrl } from './queueUrl.js';
import { freePort, startRedisServer } from './redisServer.js';
import type { RedisServer } from './redisServer.js';

const PASSWORD = 'pw-Zx81-never-print-me';

async function codeAndTime(promise: Promise<unknown>): Promise<{ error: BenchError; ms: number }> {
  const t0 = Date.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BenchError);
  return { error: error as BenchError, ms: Date.now() - t0 };
}

describe('--queue URLs', () => {
  it('parses host, port, database and TLS, and takes the password from the environment', () => {
    const spec = parseQueueUrl('rediss://grid.example:6380/3', { BENCH_REDIS_PASSWORD: PASSWORD });
    expect(spec).toMatchObject({ host: 'grid.example', port: 6380, db: 3, tls: true });
    expect(spec.password).toBe(PASSWORD);
    expect(spec.masked).toBe('rediss://grid.example:6380/3');
    expect(parseQueueUrl('redis://127.0.0.1', {})).toMatchObject({ port: 6379, db: 0, tls: false });
  });

  it('masks a password written in the URL, also in errors', () => {
    const spec = parseQueueUrl(`redis://bench:${PASSWORD}@10.0.0.5:6379/1`, {});
    expect(spec.password).toBe(PASSWORD);
    expect(spec.username).toBe('bench');
    expect(spec.masked).toBe('redis://bench:***@10.0.0.5:6379/1');
    for (const bad of [
      `http://:${PASSWORD}@h:1/0`,
      `redis://:${PASSWORD}@h:1/x`,
      `redis://:${PASSWORD}@h:1/0?a=1`,
      `redis//:${PASSWORD}@h`,
    ]) {
      let error: unknown;
      try {
        parseQueueUrl(bad, {});
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BenchError);
      expect((error as BenchError).code).toBe('BENCH_INVALID_OPTION');
      expect((error as BenchError).message).not.toContain(PASSWORD);
      expect((error as BenchError).message).toContain('***');
    }
  });
});

describe('--queue on a grid command', () => {
  const tiny = ['shakespeare', '--lengths', '4', '--variants', 'softmax'];
  const parseCode = (argv: string[]): string => codeOf(() => parseBenchArgs(argv, () => undefined));

  it('is parsed with the other flags; --detach needs it; sampler credentials are refused with it', () => {
    const command = parseBenchArgs(
      [...tiny, '--queue', 'redis://127.0.0.1:7000/4', '--detach'],
      () => undefined,
    )!;
    expect(command.queue).toMatchObject({ host: '127.0.0.1', port: 7000, db: 4 });
    expect(command.detach).toBe(true);
    expect(parseBenchArgs(tiny, () => undefined)!.queue).toBeUndefined();
    expect(parseCode([...tiny, '--detach'])).toBe('BENCH_INVALID_OPTION');
    expect(parseCode([...tiny, '--queue', 'http://x'])).toBe('BENCH_INVALID_OPTION');
    const secret = ['--sampler-options', JSON.stringify({ token: 'T0K3N' })];
    expect(parseCode([...tiny, ...secret, '--queue', 'redis://h/0'])).toBe('BENCH_INVALID_OPTION');
    expect(parseCode([...tiny, ...secret])).toBe('no error');
  });
});

describe('connecting to Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer({ password: PASSWORD });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('an unreachable port is BENCH_QUEUE_UNREACHABLE within seconds, the URL masked', async () => {
    const port = await freePort();
    const spec = parseQueueUrl(`redis://u:${PASSWORD}@127.0.0.1:${port}/0`, {});
    const { error, ms } = await codeAndTime(checkRedis(spec));
    expect(error.code).toBe('BENCH_QUEUE_UNREACHABLE');
    expect(error.message).toContain(`redis://u:***@127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain(PASSWORD);
    expect(ms).toBeLessThan(6000);
  });

  it('a host that never answers is BENCH_QUEUE_UNREACHABLE after the bound, not a hang', async () => {
    // A listening socket that accepts and never speaks: the Redis handshake cannot finish.
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const { error, ms } = await codeAndTime(
        checkRedis(parseQueueUrl(`redis://127.0.0.1:${port}/0`, {}), 1500),
      );
      expect(error.code).toBe('BENCH_QUEUE_UNREACHABLE');
      expect(ms).toBeGreaterThanOrEqual(1400);
      expect(ms).toBeLessThan(4000);
    } finally {
      silent.close();
    }
  });

  it('a wrong or missing password is BENCH_QUEUE_AUTH within seconds, the password never shown', async () => {
    for (const env of [{ BENCH_REDIS_PASSWORD: `${PASSWORD}-wrong` }, {}]) {
      const { error, ms } = await codeAndTime(checkRedis(parseQueueUrl(server.url, env)));
      expect(error.code).toBe('BENCH_QUEUE_AUTH');
      expect(error.message).toContain(`redis://127.0.0.1:${server.port}/0`);
      expect(error.message).toContain('BENCH_REDIS_PASSWORD');
      expect(error.message).not.toContain(PASSWORD);
      expect(ms).toBeLessThan(6000);
    }
  });

  it('the right password connects and reports the server version', async () => {
    const version = await checkRedis(parseQueueUrl(server.url, { BENCH_REDIS_PASSWORD: PASSWORD }));
    expect(version).toMatch(/^\d+\.\d+/);
  });
});

describe('rediss:// (TLS)', () => {
  let server: RedisServer | undefined;
  let ca = '';
  beforeAll(async () => {
    // A throw-away CA and a server certificate for 127.0.0.1 (openssl, no network).
    const dir = mkdtempSync(join(tmpdir(), 'bench-redis-tls-'));
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=bench test CA',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    );
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    );
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'san.ext',
      '-out',
      'server.pem',
    );
    ca = join(dir, 'ca.pem');
    server = await startRedisServer({
      tls: { cert: join(dir, 'server.pem'), key: join(dir, 'server.key'), ca },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('connects with the CA from $BENCH_REDIS_CA_FILE; an unknown CA or plain redis:// is a coded error in bounded time', async () => {
    expect(server!.url).toMatch(/^rediss:/);
    const spec = parseQueueUrl(server!.url, {});
    const before = process.env.BENCH_REDIS_CA_FILE;
    try {
      process.env.BENCH_REDIS_CA_FILE = ca;
      expect(await checkRedis(spec)).toMatch(/^7\./);
      delete process.env.BENCH_REDIS_CA_FILE;
      const untrusted = await codeAndTime(checkRedis(spec));
      expect(untrusted.error.code).toBe('BENCH_QUEUE_UNREACHABLE');
      expect(untrusted.error.message).toMatch(/certificate/i);
      expect(untrusted.ms).toBeLessThan(6000);
      const plain = await codeAndTime(
        checkRedis(parseQueueUrl(server!.url.replace('rediss:', 'redis:'), {}), 2000),
      );
      expect(plain.error.code).toBe('BENCH_QUEUE_UNREACHABLE');
      expect(plain.ms).toBeLessThan(4000);
    } finally {
      if (before === undefined) delete process.env.BENCH_REDIS_CA_FILE;
      else process.env.BENCH_REDIS_CA_FILE = before;
    }
  });
});

describe('the warning of a queue connection error', () => {
  const spec = parseQueueUrl('redis://127.0.0.1:6379/0', {});
  const warned = (error: Error): string => {
    const lines: string[] = [];
    connectionWarner(spec, (l) => void lines.push(l), 0)(error);
    return lines.join('\n');
  };

  it('says the connection was lost only when it was', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), {
      code: 'ECONNREFUSED',
    });
    expect(warned(refused)).toMatch(
      /lost the connection to Redis at redis:\/\/127\.0\.0\.1:6379\/0/,
    );
    expect(warned(new Error('Connection is closed.'))).toMatch(/lost the connection/);
  });

  it('a command Redis refused (a malformed job) is named as such, not as a lost connection', () => {
    for (const error of [
      new Error('ERR user_script:1003: attempt to compare nil with number script: 11d69c8'),
      new Error('Validation error, cannot resolve alias "und"'),
    ]) {
      const line = warned(error);
      expect(line).not.toMatch(/lost the connection/);
      expect(line).toMatch(/a queue command on Redis at redis:\/\/127\.0\.0\.1:6379\/0 failed/);
      expect(line).toMatch(/malformed job/);
    }
  });
});
