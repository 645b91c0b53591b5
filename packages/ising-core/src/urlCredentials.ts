/**
 * The user-information part of a URL with a password: `://`, a user name (maybe empty), `:`,
 * then a non-empty password up to the last `@` before the end of the authority (a password may
 * hold a raw `@`). The match starts at the literal `://` and each authority is scanned once, so
 * it is linear in the text's length. Quotes and angle brackets end an authority, so a URL
 * quoted inside JSON or HTML does not swallow the text after it.
 */
const URL_PASSWORD = /(:\/\/[^\s/?#@:"'<>`]*:)([^\s/?#"'<>`]+)@/g;

/**
 * A URL whose user information has no password (`https://TOKEN@host`, or `TOKEN:` with an empty
 * one): services take a token as the user name, so the user name is the credential. Run after
 * {@link URL_PASSWORD}, whose `***` then no longer matches here. Linear like it.
 */
const URL_USER_ONLY = /(:\/\/)([^\s/?#@:"'<>`]+)(:?)@/g;

/**
 * Replaces the password of every URL with credentials in `text` by `***`, keeping the scheme,
 * the user name and the host: `https://user:PW@host/` becomes `https://user:***@host/`, and
 * `redis://:PW@127.0.0.1:6379` becomes `redis://:***@127.0.0.1:6379`. A URL with a user name
 * but no password has the user name replaced, since it is then the token:
 * `https://TOKEN@host/` becomes `https://***@host/`.
 *
 * @param text any text: a log line, an error message, an option value.
 * @returns the text with every URL password replaced.
 * @example
 * redactUrlCredentials('cannot reach redis://:hunter2@10.0.0.5:6379'); // 'cannot reach redis://:***@10.0.0.5:6379'
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text
    .replace(URL_PASSWORD, '$1***@')
    .replace(URL_USER_ONLY, (all, start, user, colon) =>
      user === '***' ? all : `${start}***${colon}@`,
    );
}

/** Whether `text` holds a URL with a password or a user name (see {@link redactUrlCredentials}). */
export function hasUrlCredentials(text: string): boolean {
  return text.includes('://') && redactUrlCredentials(text) !== text;
}

/**
 * The passwords of the URLs in `text` (and the user names of those without one), as written and
 * percent-decoded, so that a credential quoted on its own (an error that names it) can be
 * redacted too.
 */
export function urlPasswords(text: string): string[] {
  const out: string[] = [];
  if (!text.includes('://')) return out;
  const found = [...text.matchAll(URL_PASSWORD), ...text.matchAll(URL_USER_ONLY)];
  for (const match of found) {
    const raw = match[2]!;
    out.push(raw);
    try {
      const decoded = decodeURIComponent(raw);
      if (decoded !== raw) out.push(decoded);
    } catch {
      // A malformed escape: the raw form is all there is.
    }
  }
  return out;
}
