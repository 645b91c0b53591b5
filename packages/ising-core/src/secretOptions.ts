import { hasJwt, redactJwts } from './jwtCredentials.js';
import { isSecretKey } from './secretKeys.js';
import { hasUrlCredentials, redactUrlCredentials, urlPasswords } from './urlCredentials.js';

/** The options of a sampler split into what may be written down and what must not. */
export interface SplitOptions {
  /** The options with every secret removed: safe to hash, log, save and report. */
  readonly options: Record<string, unknown>;
  /** Only the secrets, in the same nesting (`{ token }`, `{ clientConfig: { credentials } }`). */
  readonly secrets: Record<string, unknown>;
  /** Dotted paths of the secrets found, e.g. `['token', 'servers.0.apiKey']`: names only, never values. */
  readonly paths: readonly string[];
}

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** Nesting beyond which a value is not walked: it is treated as a secret whole (fail closed). */
const MAX_WALK_DEPTH = 64;

/** Keys (any case) that name the other half of a name/value pair: HTTP header lists, AWS tags. */
const PAIR_NAME_KEYS = new Set(['name', 'key', 'header']);
const PAIR_VALUE_KEYS = new Set(['value', 'values']);

/**
 * Whether `v` is a name/value pair whose name is a credential key, as
 * `{ name: 'Authorization', value: 'Bearer …' }` or `{ Key: 'apiKey', Value: '…' }`: its value
 * is then the credential, though its own key (`value`) says nothing.
 */
function isCredentialPair(v: Plain): boolean {
  return Object.entries(v).some(
    ([k, name]) =>
      PAIR_NAME_KEYS.has(k.toLowerCase()) && typeof name === 'string' && isSecretKey(name),
  );
}

/** Credentials recognisable by their shape in any string: URL user information, JWTs. */
const hasCredentialText = (v: string): boolean => hasUrlCredentials(v) || hasJwt(v);
const redactCredentialText = (v: string): string => redactJwts(redactUrlCredentials(v));

/** What one level of the walk keeps public and what it hides (`undefined`: nothing). */
interface Parts<T> {
  readonly open: T;
  readonly hidden: T | undefined;
}

class SecretWalk {
  readonly paths: string[] = [];
  constructor(private readonly declared: readonly string[]) {}

  /** Whether the value at `path` (under `key`, when it has one) is a secret as a whole. */
  private secretAt(path: string, key: string | undefined): boolean {
    return (
      this.declared.includes(path) ||
      (key !== undefined && (isSecretKey(key) || hasUrlCredentials(key)))
    );
  }

  /**
   * Splits one value: `open` is what may be written down, `hidden` the secrets in the same
   * nesting. `whole` says the value is secret as a whole (a declared path or a credential key).
   */
  value(
    v: unknown,
    path: string,
    key: string | undefined,
    depth: number,
  ): Parts<unknown> & { whole: boolean } {
    if (this.secretAt(path, key) || ((isPlain(v) || Array.isArray(v)) && depth >= MAX_WALK_DEPTH))
      return this.hide(v, path);
    if (typeof v === 'string' && hasCredentialText(v)) {
      this.paths.push(path);
      return { open: redactCredentialText(v), hidden: v, whole: false };
    }
    if (isPlain(v)) return { ...this.object(v, path, depth + 1), whole: false };
    if (Array.isArray(v)) return { ...this.array(v, path, depth + 1), whole: false };
    return { open: v, hidden: undefined, whole: false };
  }

  /** The value at `path` is a secret as a whole. */
  private hide(v: unknown, path: string): Parts<unknown> & { whole: boolean } {
    this.paths.push(path);
    return { open: undefined, hidden: v, whole: true };
  }

  object(value: Plain, prefix: string, depth: number): Parts<Plain> {
    const open: Plain = {};
    let hidden: Plain | undefined;
    const pair = isCredentialPair(value);
    for (const [key, v] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const part =
        pair && PAIR_VALUE_KEYS.has(key.toLowerCase())
          ? this.hide(v, path)
          : this.value(v, path, key, depth);
      if (!part.whole) open[key] = part.open;
      if (part.hidden !== undefined) {
        hidden ??= {};
        hidden[key] = part.hidden;
      }
    }
    return { open, hidden };
  }

  /** Arrays keep their length and indices: a slot whose value is secret as a whole becomes `null`. */
  private array(value: readonly unknown[], prefix: string, depth: number): Parts<unknown[]> {
    const open: unknown[] = [];
    let hidden: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const part = this.value(value[i], `${prefix}.${i}`, undefined, depth);
      open.push(part.whole ? null : part.open);
      if (part.hidden !== undefined) {
        hidden ??= [];
        while (hidden.length < i) hidden.push(null);
        hidden.push(part.hidden);
      }
    }
    return { open, hidden };
  }
}

/**
 * Splits sampler options into public options and secrets. A value is secret when its dotted
 * path is in `declared` (a plugin's `secretOptions`), or its key names a credential
 * ({@link isSecretKey}: `token`, `apiKey`, `password`, `session`, `sig`, …), or it is the `value`
 * of a name/value pair whose name is such a key (`{ name: 'Authorization', value: 'Bearer …' }`),
 * or it is a string holding a URL with credentials (`https://user:PW@host/`, `https://TOKEN@host/`)
 * or a JWT (`eyJ….eyJ….…`). Objects and arrays are walked at any depth
 * (64 levels; deeper values are kept secret whole), so the public part can be hashed into a run
 * id (rotating a token then changes nothing) and saved. Inputs are not modified.
 *
 * - **Paths** are dotted, with array indices as segments: `servers.0.apiKey`. Declared paths
 *   use the same form.
 * - **Arrays** keep their length in the public options, so indices still match: an element
 *   that is secret as a whole (a declared path such as `hosts.1`) becomes `null` there. In the
 *   secrets, an array holds the secret parts at their indices and `null` in the slots before
 *   them that hold none (`{ servers: [null, { apiKey }] }`), which survives JSON.
 * - **URLs with credentials and JWTs** stay in the public options with the credential replaced
 *   (`https://user:***@host/`, `Bearer ***`, see {@link redactUrlCredentials}); the secrets hold
 *   the original string at the same path.
 *
 * @param options the user's options (a plain object; anything else is returned as no options).
 * @param declared dotted paths the plugin declares secret, e.g. `['token', 'clientConfig.credentials']`.
 * @returns the public options, the secrets, and the secrets' paths.
 * @example
 * const { options, secrets } = splitSecretOptions({ token: 'DEV-…', numReads: 100 }, ['token']);
 * // options: { numReads: 100 }, secrets: { token: 'DEV-…' }
 */
export function splitSecretOptions(
  options: unknown,
  declared: readonly string[] = [],
): SplitOptions {
  const walk = new SecretWalk(declared);
  if (!isPlain(options)) return { options: {}, secrets: {}, paths: walk.paths };
  const { open, hidden } = walk.object(options, '', 0);
  return { options: open, secrets: hidden ?? {}, paths: walk.paths };
}

/**
 * Puts secrets split off by {@link splitSecretOptions} back into the public options, for the
 * one place that needs them: the plugin's `create`. Objects merge key by key and arrays index by
 * index, where a `null` (or missing) slot in a secrets array keeps the public value. Inputs are
 * not modified.
 *
 * @example
 * plugin.create(mergeSecretOptions(config.samplerOptions, secretsFromEnvironment));
 */
export function mergeSecretOptions(options: Readonly<Plain>, secrets: Readonly<Plain>): Plain {
  const out: Plain = { ...options };
  for (const [key, v] of Object.entries(secrets)) out[key] = mergeValue(out[key], v);
  return out;
}

function mergeValue(current: unknown, secret: unknown): unknown {
  if (isPlain(secret) && isPlain(current)) return mergeSecretOptions(current, secret);
  if (!Array.isArray(secret)) return secret;
  const out: unknown[] = Array.isArray(current) ? current.slice() : [];
  secret.forEach((v: unknown, i) => {
    if (v !== null && v !== undefined) out[i] = mergeValue(out[i], v);
    else if (i >= out.length) out[i] = null;
  });
  return out;
}

function secretStrings(value: unknown, out: string[], depth = 0): string[] {
  if (typeof value === 'string' || typeof value === 'number') {
    const s = String(value);
    // Very short values (a PIN of "1") would blank out ordinary digits everywhere.
    if (s.length >= 4) out.push(s);
    if (typeof value === 'string')
      for (const pw of urlPasswords(value)) if (pw.length >= 4) out.push(pw);
  } else if (value !== null && typeof value === 'object' && depth < MAX_WALK_DEPTH) {
    for (const v of Object.values(value)) secretStrings(v, out, depth + 1);
  }
  return out;
}

/**
 * Replaces every secret value (each string leaf of `secrets`, four characters or longer, and
 * the password of each secret URL) in `text` with `***`, then the credentials of every URL in the
 * text ({@link redactUrlCredentials}) and every JWT-shaped value: the last line of defence for
 * messages that might quote a credential, such as a third-party plugin's error.
 *
 * @example
 * redactSecrets('401 for token DEV-123', { token: 'DEV-123' }); // '401 for token ***'
 * redactSecrets('no route to redis://:pw@10.0.0.5', {}); // 'no route to redis://:***@10.0.0.5'
 */
export function redactSecrets(text: string, secrets: Readonly<Record<string, unknown>>): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of secretStrings(secrets, []).sort((a, b) => b.length - a.length))
    out = out.split(s).join('***');
  return redactCredentialText(out);
}
