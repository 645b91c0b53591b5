/** The options of a sampler split into what may be written down and what must not. */
export interface SplitOptions {
  /** The options with every secret removed: safe to hash, log, save and report. */
  readonly options: Record<string, unknown>;
  /** Only the secrets, in the same nesting (`{ token }`, `{ clientConfig: { credentials } }`). */
  readonly secrets: Record<string, unknown>;
  /** Dotted paths of the secrets found, e.g. `['token']`: names only, never values. */
  readonly paths: readonly string[];
}

/**
 * Option keys that hold a credential whatever plugin reads them, so a third-party plugin that
 * declares no `secretOptions` still never has its token written to a results folder.
 */
export const SECRET_KEY_PATTERN =
  /token|secret|password|passphrase|credential|api[-_]?key|private[-_]?key|access[-_]?key|auth/i;

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

/**
 * Splits sampler options into public options and secrets. A value is secret when its dotted
 * path is in `declared` (a plugin's `secretOptions`) or its key matches
 * {@link SECRET_KEY_PATTERN}; secrets are removed from `options` wherever they sit, so the
 * public part can be hashed into a run id (rotating a token then changes nothing) and saved.
 * Inputs are not modified.
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
  const paths: string[] = [];
  const walk = (
    value: Plain,
    prefix: string,
    depth: number,
  ): { open: Plain; hidden: Plain | undefined } => {
    const open: Plain = {};
    let hidden: Plain | undefined;
    for (const [key, v] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (declared.includes(path) || SECRET_KEY_PATTERN.test(key)) {
        hidden ??= {};
        hidden[key] = v;
        paths.push(path);
      } else if (isPlain(v) && depth < 64) {
        const inner = walk(v, path, depth + 1);
        open[key] = inner.open;
        if (inner.hidden !== undefined) {
          hidden ??= {};
          hidden[key] = inner.hidden;
        }
      } else {
        open[key] = v;
      }
    }
    return { open, hidden };
  };
  if (!isPlain(options)) return { options: {}, secrets: {}, paths };
  const { open, hidden } = walk(options, '', 0);
  return { options: open, secrets: hidden ?? {}, paths };
}

/**
 * Puts secrets split off by {@link splitSecretOptions} back into the public options, for the
 * one place that needs them: the plugin's `create`. Inputs are not modified.
 *
 * @example
 * plugin.create(mergeSecretOptions(config.samplerOptions, secretsFromEnvironment));
 */
export function mergeSecretOptions(options: Readonly<Plain>, secrets: Readonly<Plain>): Plain {
  const out: Plain = { ...options };
  for (const [key, v] of Object.entries(secrets)) {
    const current = out[key];
    out[key] = isPlain(v) && isPlain(current) ? mergeSecretOptions(current, v) : v;
  }
  return out;
}

function secretStrings(value: unknown, out: string[], depth = 0): string[] {
  if (typeof value === 'string' || typeof value === 'number') {
    const s = String(value);
    // Very short values (a PIN of "1") would blank out ordinary digits everywhere.
    if (s.length >= 4) out.push(s);
  } else if (value !== null && typeof value === 'object' && depth < 64) {
    for (const v of Object.values(value)) secretStrings(v, out, depth + 1);
  }
  return out;
}

/**
 * Replaces every secret value (each string leaf of `secrets`, four characters or longer) in
 * `text` with `***`: the last line of defence for messages that might quote a credential, such
 * as a third-party plugin's error.
 *
 * @example
 * redactSecrets('401 for token DEV-123', { token: 'DEV-123' }); // '401 for token ***'
 */
export function redactSecrets(text: string, secrets: Readonly<Record<string, unknown>>): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of secretStrings(secrets, []).sort((a, b) => b.length - a.length))
    out = out.split(s).join('***');
  return out;
}
