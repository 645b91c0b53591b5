// Issue 38: credentials the redaction used to miss, each through both doors (splitSecretOptions for
// options that are saved and hashed, redactSecrets for text that is printed).
import { describe, expect, it } from 'vitest';
import {
  isSecretKey,
  mergeSecretOptions,
  redactSecrets,
  splitSecretOptions,
} from './internalApi.js';
import { redactUrlCredentials } from './urlCredentials.js';

// A JWT of the usual shape (header, payload and signature, base64url): not a real token.
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJib2x0em1hbm4iLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLW5vdC1yZWFs_-x';

describe('a name/value pair whose name is a credential', () => {
  it('keeps the value of {name: "Authorization", value: "Bearer …"} secret, in arrays too', () => {
    const input = {
      headers: [
        { name: 'Authorization', value: 'Bearer PAIR-TOKEN-1' },
        { name: 'Accept', value: 'application/json' },
      ],
      tag: { Name: 'x-api-key', Value: 'PAIR-TOKEN-2' },
    };
    const { options, secrets, paths } = splitSecretOptions(input);
    expect(JSON.stringify(options)).not.toContain('PAIR-TOKEN');
    expect(options).toEqual({
      headers: [{ name: 'Authorization' }, { name: 'Accept', value: 'application/json' }],
      tag: { Name: 'x-api-key' },
    });
    expect(paths).toEqual(['headers.0.value', 'tag.Value']);
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
    expect(redactSecrets('401 with Bearer PAIR-TOKEN-1', secrets)).toBe('401 with ***');
  });
});

describe('a URL whose user information is the credential (no password)', () => {
  it('redacts https://TOKEN@host in text and in options', () => {
    expect(redactUrlCredentials('GET https://ghp_TOKEN123@git.example/repo failed')).toBe(
      'GET https://***@git.example/repo failed',
    );
    expect(redactSecrets('clone https://ghp_TOKEN123@git.example/r', {})).toBe(
      'clone https://***@git.example/r',
    );
    expect(redactSecrets('see https://TOK-EMPTY-PW:@h/', {})).toBe('see https://***:@h/');
    const { options, secrets, paths } = splitSecretOptions({
      repo: 'https://ghp_TOKEN123@g.example/',
    });
    expect(options).toEqual({ repo: 'https://***@g.example/' });
    expect(paths).toEqual(['repo']);
    expect(redactSecrets('token ghp_TOKEN123 refused', secrets)).toBe('token *** refused');
  });

  it('still leaves URLs without user information alone', () => {
    for (const text of ['https://host:8080/p?q=a@b', 'mailto:a@b.c', 'https://h/x@y'])
      expect(redactUrlCredentials(text)).toBe(text);
  });
});

describe('a key named sig', () => {
  it('is a credential (a SAS or URL signature), while signal and sigma are not', () => {
    for (const key of ['sig', 'Sig', 'sasSig', 'sig_v2']) expect(isSecretKey(key), key).toBe(true);
    for (const key of ['signal', 'sigma', 'signals']) expect(isSecretKey(key), key).toBe(false);
    expect(splitSecretOptions({ sig: 'SIG-VALUE', seed: 1 }).options).toEqual({ seed: 1 });
  });
});

describe('JWT-shaped values', () => {
  it('are secret under any key, and redacted from any text', () => {
    const { options, secrets, paths } = splitSecretOptions({ note: JWT, header: `Bearer ${JWT}` });
    expect(JSON.stringify(options)).not.toContain(JWT);
    expect(options).toEqual({ note: '***', header: 'Bearer ***' });
    expect(paths).toEqual(['note', 'header']);
    expect(mergeSecretOptions(options, secrets)).toEqual({ note: JWT, header: `Bearer ${JWT}` });
    expect(redactSecrets(`refused token ${JWT}.`, {})).toBe('refused token ***.');
  });

  it('leaves dotted names, versions and ordinary words alone', () => {
    for (const text of ['eyJust.a.word', 'v1.2.3', 'a.b.c', 'model.layer.weight', 'eyJ.x'])
      expect(redactSecrets(text, {}), text).toBe(text);
  });
});
