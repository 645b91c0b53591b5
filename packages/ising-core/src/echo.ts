import { estimateJsonLength, jsonHead, WHOLE_JSON_LIMIT } from './internal/boundedJson.js';

/** Default longest echo of a user value in an error message, in characters. */
export const DEFAULT_ECHO_LENGTH = 120;

/** Cuts `text` to `maxLength` characters, saying how many of `total` were left out. */
function cut(text: string, total: number, maxLength: number, atLeast: boolean): string {
  if (total <= maxLength) return text;
  const kept = Math.max(1, maxLength - 1);
  const more = (total - kept).toLocaleString('en-US');
  return `${text.slice(0, kept)}… (${atLeast ? 'at least ' : ''}${more} more characters)`;
}

/** A long string is cut before it is quoted; characters past the cut count once each. */
function echoString(value: string, maxLength: number): string {
  if (value.length <= maxLength) {
    const text = JSON.stringify(value);
    return cut(text, text.length, maxLength, false);
  }
  const open = JSON.stringify(value.slice(0, maxLength)).slice(0, -1);
  return cut(open, open.length + (value.length - maxLength) + 1, maxLength, false);
}

function echoObject(value: object, maxLength: number): string {
  try {
    if (estimateJsonLength(value) <= WHOLE_JSON_LIMIT) {
      const text = JSON.stringify(value) ?? String(value);
      return cut(text, text.length, maxLength, false);
    }
    // Too large to build whole: write a head, and say the rest is at least the estimate's bound.
    const head = jsonHead(value, maxLength);
    return cut(head, Math.max(head.length, WHOLE_JSON_LIMIT), maxLength, true);
  } catch {
    // Cycles, BigInts inside, nesting deep enough to overflow the stack, a throwing toJSON:
    // an echo must never throw.
    return Object.prototype.toString.call(value);
  }
}

/**
 * A bounded, printable form of a value a user passed in, for error messages: strings are
 * quoted, objects are JSON, and anything longer than `maxLength` characters is cut with a note
 * of how much was left out. Every package's errors echo bad input through this, so a
 * 200,000-character schedule or a huge options object never becomes a 200,000-character message.
 *
 * The cost is bounded too: a long string is cut before it is quoted (characters past the cut
 * are counted, not escaped), and an array or object whose JSON would pass 1 MiB is never
 * serialized whole: its head is written item by item and the note says `at least` how much
 * was left out.
 *
 * @param value the offending value.
 * @param maxLength the longest echo (default {@link DEFAULT_ECHO_LENGTH}).
 * @returns e.g. `"1-u+zeros(3,3)"`, or `"aaaa…" (199,880 more characters)`.
 * @example
 * throw new IsingError('ISING_INVALID_ARGUMENT', `bad schedule ${echo(schedule)}`);
 */
export function echo(value: unknown, maxLength = DEFAULT_ECHO_LENGTH): string {
  if (typeof value === 'string') return echoString(value, maxLength);
  if (typeof value === 'bigint') return cut(`${value}n`, `${value}n`.length, maxLength, false);
  if (value === null || typeof value !== 'object') {
    const text = String(value);
    return cut(text, text.length, maxLength, false);
  }
  return echoObject(value, maxLength);
}
