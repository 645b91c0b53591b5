/**
 * Words that make an option key a credential when one of the key's words equals them.
 * `pass`, `key`, `session` and `sig` count only as whole words, so `numPasses`, `keyframes`, `monkey`, `signal`
 * and `sessionsPerDay` stay public. Plurals that usually name counts (`tokens`, `keys`,
 * `sessions`) are not credential words: `maxTokens` is a length, not a token.
 */
const CREDENTIAL_WORDS = new Set([
  'token',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passphrase',
  'pass',
  'pwd',
  'passwd',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'bearer',
  'cookie',
  'cookies',
  'session',
  'key',
  // A URL or SAS signature (`sig=` in an Azure SAS): whoever holds it has the access it signs.
  'sig',
]);

/**
 * Endings that make a glued lowercase word a credential (`accesstoken`, `oauth`, `dbpassword`,
 * `apikey`): each is long or specific enough that no ordinary word ends with it.
 */
const CREDENTIAL_ENDINGS = [
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'credential',
  'credentials',
  'auth',
  'apikey',
  'privatekey',
  'accesskey',
  'secretkey',
];

/** Glued words the old substring rule caught that are credentials yet end otherwise. */
const CREDENTIAL_GLUED = new Set(['accesskeyid', 'apikeyid']);

type CharClass = 'lower' | 'upper' | 'digit' | 'other';

function classOf(code: number): CharClass {
  if (code >= 97 && code <= 122) return 'lower';
  if (code >= 65 && code <= 90) return 'upper';
  if (code >= 48 && code <= 57) return 'digit';
  return 'other';
}

/**
 * The lowercase words of a key: split at every character that is not an ASCII letter or digit
 * (`_`, `-`, `.`, spaces, …), between letters and digits, before an upper-case letter that
 * follows a lower-case one (`apiKey`), and before the last capital of a run followed by a
 * lower-case letter (`APIKey` → `api`, `key`). One pass, no regular expression, so it is
 * linear in the key's length. {@link isSecretKey} judges a key by these words.
 *
 * @param key any option key.
 * @returns its words, lower-case, in order.
 * @example
 * keyWords('accessKeyID_v2'); // ['access', 'key', 'id', 'v', '2']
 */
export function keyWords(key: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= key.length; i++) {
    const c = i < key.length ? classOf(key.charCodeAt(i)) : 'other';
    if (start >= 0) {
      const prev = classOf(key.charCodeAt(i - 1));
      const next = i + 1 < key.length ? classOf(key.charCodeAt(i + 1)) : 'other';
      const boundary =
        c === 'other' ||
        (c === 'digit') !== (prev === 'digit') ||
        (c === 'upper' && prev === 'lower') ||
        (c === 'upper' && prev === 'upper' && next === 'lower');
      if (boundary) {
        words.push(key.slice(start, i).toLowerCase());
        start = -1;
      }
    }
    if (start < 0 && c !== 'other') start = i;
  }
  return words;
}

function isCredentialWord(word: string): boolean {
  return (
    CREDENTIAL_WORDS.has(word) ||
    CREDENTIAL_GLUED.has(word) ||
    CREDENTIAL_ENDINGS.some((ending) => word.endsWith(ending))
  );
}

/**
 * Whether an option key names a credential whatever plugin reads it, so a third-party plugin
 * that declares no `secretOptions` still never has its token written to a results folder.
 *
 * The key is split into words (camelCase, PascalCase, snake_case, kebab-case, dots, digits) and
 * is a credential when any word is one of `token`, `secret(s)`, `password(s)`, `passphrase`,
 * `pass`, `pwd`, `passwd`, `credential(s)`, `auth`, `authorization`, `bearer`, `cookie(s)`,
 * `session`, `key` or `sig`, or is a glued word ending in `token`, `secret`, `password`, `passwd`,
 * `passphrase`, `credential(s)`, `auth`, `apikey`, `privatekey`, `accesskey` or `secretkey`
 * (`accesstoken`, `oauth`), or is `accesskeyid`. So `apiKey`, `api_key`, `privateKey`,
 * `accessKeyId`, `sshKey`, `sessionId`, `Set-Cookie` and `dbPass` are credentials, and
 * `numPasses`, `keyframes`, `monkey`, `sessionsPerDay`, `author`, `maxTokens` and `tokenizer`
 * are not.
 *
 * @param key an option key (any string; the cost is linear in its length).
 * @returns true when the value under this key must be kept secret.
 * @example
 * isSecretKey('accessKeyId'); // true
 * isSecretKey('keyframes'); // false
 */
export function isSecretKey(key: string): boolean {
  return keyWords(key).some(isCredentialWord);
}
