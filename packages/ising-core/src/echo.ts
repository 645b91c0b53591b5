/** Default longest echo of a user value in an error message, in characters. */
export const DEFAULT_ECHO_LENGTH = 120;

function printable(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Cycles, BigInts inside, or nesting deep enough to overflow the stack.
    return Object.prototype.toString.call(value);
  }
}

/**
 * A bounded, printable form of a value a user passed in, for error messages: strings are
 * quoted, objects are JSON, and anything longer than `maxLength` characters is cut with a note
 * of how much was left out. Every package's errors echo bad input through this, so a
 * 200,000-character schedule or a huge options object never becomes a 200,000-character message.
 *
 * @param value the offending value.
 * @param maxLength the longest echo (default {@link DEFAULT_ECHO_LENGTH}).
 * @returns e.g. `"1-u+zeros(3,3)"`, or `"aaaa…" (199,880 more characters)`.
 * @example
 * throw new IsingError('ISING_INVALID_ARGUMENT', `bad schedule ${echo(schedule)}`);
 */
export function echo(value: unknown, maxLength = DEFAULT_ECHO_LENGTH): string {
  const text = printable(value);
  if (text.length <= maxLength) return text;
  const kept = Math.max(1, maxLength - 1);
  return `${text.slice(0, kept)}… (${(text.length - kept).toLocaleString('en-US')} more characters)`;
}
