/**
 * A JSON Web Token: three base64url segments, the header and the payload each a JSON object, so
 * each begins `eyJ` (`{"`); the signature may be empty (an unsigned token). The header is at least
 * 8 characters past `eyJ` (the shortest real header, `{"alg":"none"}`, is 20), so a word such as
 * `eyJust.a.word` is not one. Bounded by characters outside base64url, and linear (the segment
 * classes exclude the dots between them).
 */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;

/**
 * Replaces every JWT-shaped value in `text` by `***`: a bearer token is a credential wherever it
 * appears, under whatever key or in whatever message, and its shape says so.
 *
 * @param text any text: a log line, an error message, an option value.
 * @returns the text with every JWT replaced.
 * @example
 * redactJwts('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'); // 'Bearer ***'
 */
export function redactJwts(text: string): string {
  return text.includes('eyJ') ? text.replace(JWT, '***') : text;
}

/** Whether `text` holds a JWT-shaped value (see {@link redactJwts}). */
export function hasJwt(text: string): boolean {
  return text.includes('eyJ') && redactJwts(text) !== text;
}
