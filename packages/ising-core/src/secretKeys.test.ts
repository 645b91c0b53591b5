import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretKey, keyWords, mergeSecretOptions, splitSecretOptions } from './internalApi.js';

// Keys a credential may sit under: every word form the brief lists, and every key the old
// substring pattern caught that names a credential.
const SECRET_KEYS = [
  'token',
  'authToken',
  'auth_token',
  'x-auth-token',
  'accessToken',
  'accesstoken',
  'refreshtoken',
  'secret',
  'clientSecret',
  'client_secret',
  'secretAccessKey',
  'secrets',
  'password',
  'dbPassword',
  'DB_PASSWORD',
  'passwords',
  'passphrase',
  'pass',
  'dbPass',
  'pass.word',
  'pwd',
  'userPwd',
  'passwd',
  'credential',
  'credentials',
  'awsCredentials',
  'auth',
  'OAuth',
  'oauth',
  'Authorization',
  'proxy-authorization',
  'bearer',
  'bearerToken',
  'cookie',
  'Set-Cookie',
  'cookies',
  'session',
  'sessionId',
  'session_id',
  'key',
  'apiKey',
  'api_key',
  'api-key',
  'apikey',
  'APIKey',
  'API_KEY',
  'privateKey',
  'private_key',
  'privatekey',
  'accessKeyId',
  'accessKeyID',
  'access_key_id',
  'accesskeyid',
  'sshKey',
  'ssh.key',
  'key2',
] as const;

// Innocent keys, some of which contain a credential word as a substring.
const PUBLIC_KEYS = [
  'numPasses',
  'passes',
  'keyframes',
  'keyboard',
  'monkey',
  'turkey',
  'hotkeys',
  'sessionsPerDay',
  'sessions',
  'author',
  'authors',
  'authority',
  'maxTokens',
  'numTokens',
  'tokenizer',
  'tokens',
  'compass',
  'bypass',
  'passage',
  'keys',
  'seed',
  'numReads',
  'solver',
  'beta',
  'maxSpins',
  'threads',
  '',
  '0',
] as const;

/** Whether `splitSecretOptions` moves the key to the secrets (no declared paths). */
const flagged = (key: string): boolean => splitSecretOptions({ [key]: 'value' }).paths.length > 0;

describe('credential keys are judged by word', () => {
  it('flags every credential word, in camelCase, snake_case, kebab-case, dotted or glued', () => {
    expect(SECRET_KEYS.filter((key) => !flagged(key))).toEqual([]);
    // Word splitting is linear: a 100,000-character key costs no backtracking.
    expect(flagged(`${'a'.repeat(100_000)}ApiKey`)).toBe(true);
  });

  it('leaves innocent keys alone, even when a credential word is a substring', () => {
    expect(PUBLIC_KEYS.filter((key) => flagged(key))).toEqual([]);
    expect(flagged(`${'A'.repeat(100_000)}B`)).toBe(false);
  });

  it('keyWords splits camelCase, PascalCase, acronyms, separators and digits', () => {
    expect(keyWords('accessKeyID_v2')).toEqual(['access', 'key', 'id', 'v', '2']);
    expect(keyWords('APIKey')).toEqual(['api', 'key']);
    expect(keyWords('x-api-key.Set Cookie')).toEqual(['x', 'api', 'key', 'set', 'cookie']);
    expect(keyWords('__')).toEqual([]);
  });

  it('isSecretKey is the rule splitSecretOptions applies', () => {
    for (const key of [...SECRET_KEYS, ...PUBLIC_KEYS]) expect(isSecretKey(key)).toBe(flagged(key));
  });

  it('flags no key made only of non-credential words, however they are joined', () => {
    const word = fc.constantFrom(
      'num',
      'max',
      'passes',
      'keyframes',
      'monkey',
      'sessions',
      'author',
      'tokens',
      'tokenizer',
      'compass',
      'seed',
      'reads',
      'beta',
      'solver',
      'per',
      'day',
      'id',
      'url',
      'host',
      'name',
      'count',
      'v2',
    );
    const join = fc.constantFrom('camel', '_', '-', '.', 'Pascal', 'UPPER_');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), join, (words, how) => {
        const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
        let key: string;
        if (how === 'camel') key = words[0]! + words.slice(1).map(cap).join('');
        else if (how === 'Pascal') key = words.map(cap).join('');
        else if (how === 'UPPER_') key = words.join('_').toUpperCase();
        else key = words.join(how);
        return !flagged(key);
      }),
      { numRuns: 500 },
    );
  });
});

describe('splitSecretOptions walks arrays', () => {
  it('splits a secret out of an array element, keeping indices and nesting', () => {
    const input = {
      servers: [{ host: 'a', apiKey: 'SECRET-A' }, { host: 'b' }, { host: 'c', token: 'TOK-C' }],
      seeds: [1, 2, 3],
    };
    const { options, secrets, paths } = splitSecretOptions(input);
    expect(options).toEqual({
      servers: [{ host: 'a' }, { host: 'b' }, { host: 'c' }],
      seeds: [1, 2, 3],
    });
    expect(JSON.stringify(options)).not.toMatch(/SECRET-A|TOK-C/);
    expect(secrets).toEqual({ servers: [{ apiKey: 'SECRET-A' }, null, { token: 'TOK-C' }] });
    expect(paths).toEqual(['servers.0.apiKey', 'servers.2.token']);
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
    // The secrets survive a JSON round trip (IPC to a worker process) and still merge back.
    expect(mergeSecretOptions(options, JSON.parse(JSON.stringify(secrets)))).toEqual(input);
    expect(input.servers[0]).toEqual({ host: 'a', apiKey: 'SECRET-A' });
  });

  it('walks arrays nested in arrays, and honours declared paths with indices', () => {
    const input = { groups: [[{ password: 'PW-1' }], [{ name: 'x', cert: 'CERT' }]] };
    const { options, secrets, paths } = splitSecretOptions(input, ['groups.1.0.cert']);
    expect(options).toEqual({ groups: [[{}], [{ name: 'x' }]] });
    expect(paths).toEqual(['groups.0.0.password', 'groups.1.0.cert']);
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
  });

  it('a declared array element becomes null in the public array', () => {
    const input = { hosts: ['public-host', 'SECRET-HOST'] };
    const { options, secrets } = splitSecretOptions(input, ['hosts.1']);
    expect(options).toEqual({ hosts: ['public-host', null] });
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
  });

  it('keeps values nested deeper than 64 levels secret whole instead of writing them unchecked', () => {
    let deep: Record<string, unknown> = { note: 'x' };
    for (let i = 0; i < 70; i++) deep = { level: deep };
    const { options, secrets, paths } = splitSecretOptions({ deep });
    expect(JSON.stringify(options)).not.toContain('note');
    expect(paths).toHaveLength(1);
    expect(mergeSecretOptions(options, secrets)).toEqual({ deep });
  });

  it('merges two secret sets with arrays element by element', () => {
    const a = { servers: [null, { apiKey: 'A' }] };
    const b = { servers: [{ token: 'B' }] };
    expect(mergeSecretOptions(a, b)).toEqual({ servers: [{ token: 'B' }, { apiKey: 'A' }] });
  });
});
