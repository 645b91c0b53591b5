import { describe, expect, it } from 'vitest';
import { mergeSecretOptions, redactSecrets, splitSecretOptions } from './internalApi.js';
import { redactUrlCredentials } from './urlCredentials.js';

const TEXTS: readonly (readonly [string, string])[] = [
  ['https://user:PW1234@host/path', 'https://user:***@host/path'],
  ['redis://:s3cr3t@127.0.0.1:6379/0', 'redis://:***@127.0.0.1:6379/0'],
  ['amqp://u:p@ss@broker', 'amqp://u:***@broker'],
  [
    'see https://a:b@x.org and http://c:dddd@y.org?q=1.',
    'see https://a:***@x.org and http://c:***@y.org?q=1.',
  ],
  ['{"url":"redis://u:pw@h","other":"x@y"}', '{"url":"redis://u:***@h","other":"x@y"}'],
  ['https://host:8080/path', 'https://host:8080/path'],
  // A user name without a password is the credential (`https://TOKEN@host`, issue 38).
  ['https://user@host/', 'https://***@host/'],
  ['https://user:@host/', 'https://***:@host/'],
  ['mailto:a@b.c and a:b@c', 'mailto:a@b.c and a:b@c'],
  ['no url here', 'no url here'],
];

describe('redactUrlCredentials', () => {
  it('replaces the password of every URL in a text, through redactSecrets too', () => {
    for (const [text, expected] of TEXTS) {
      expect(redactSecrets(text, {}), text).toBe(expected);
      expect(redactUrlCredentials(text), text).toBe(expected);
    }
    // Linear on adversarial text: many "://" openings and a long run without "@".
    const text = `${'://a:'.repeat(40_000)}${'b'.repeat(100_000)}`;
    expect(redactUrlCredentials(text)).toBe(text);
  });
});

describe('URL passwords in options', () => {
  it('replaces the password in public options at any depth (arrays too) and keeps the URL as a secret', () => {
    const input = {
      queue: 'redis://:QUEUE-PW@127.0.0.1:6379',
      mirrors: ['https://public.example/', 'https://bob:MIRROR-PW@mirror.example/x'],
      nested: { endpoint: 'https://svc:NESTED-PW@api.example/v1', retries: 3 },
    };
    const { options, secrets, paths } = splitSecretOptions(input);
    expect(options).toEqual({
      queue: 'redis://:***@127.0.0.1:6379',
      mirrors: ['https://public.example/', 'https://bob:***@mirror.example/x'],
      nested: { endpoint: 'https://svc:***@api.example/v1', retries: 3 },
    });
    expect(JSON.stringify(options)).not.toMatch(/-PW/);
    expect(paths).toEqual(['queue', 'mirrors.1', 'nested.endpoint']);
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
  });

  it('gives the same public options whatever the URL password (run ids survive rotation)', () => {
    const a = splitSecretOptions({ url: 'https://u:one1@h/' }).options;
    const b = splitSecretOptions({ url: 'https://u:two2@h/' }).options;
    expect(a).toEqual(b);
  });

  it('redactSecrets removes URL passwords from text, and the bare password of a secret URL', () => {
    expect(redactSecrets('connect redis://:PW-9876@h:1 failed', {})).toBe(
      'connect redis://:***@h:1 failed',
    );
    const { secrets } = splitSecretOptions({ queue: 'redis://:PW-9876@h:1' });
    expect(redactSecrets('auth failed for PW-9876', secrets)).toBe('auth failed for ***');
  });
});
