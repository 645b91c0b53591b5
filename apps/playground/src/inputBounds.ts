/**
 * What the page's inputs accept, and the short messages shown when an input is cut or refused.
 * Every check here also runs in code, not only as an element attribute: a script, or a value set
 * before the attribute, bypasses `maxlength`, `min` and `max`. No message repeats more than
 * MAX_ECHO_CHARS characters of what was typed.
 */
import { LENGTHS } from './training/trainConfig.js';

/** The longest attention string the page takes at all: the largest context length T it offers. */
export const MAX_ATTENTION_CHARS = Math.max(...LENGTHS);

/** The most characters of user input any message repeats (well under the 120 the site allows). */
export const MAX_ECHO_CHARS = 40;

/** The longest raw text a number input may hold: longer is no number the page could use. */
export const MAX_NUMBER_CHARS = 24;

const COUNT = new Intl.NumberFormat('en');

/** The first `max` characters (code points) of `text`, and whether anything was left out. */
export function firstChars(text: string, max: number): { text: string; cut: boolean } {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return { text, cut: false }; // UTF-16 units ≥ code points
  let end = 0;
  let count = 0;
  for (const c of text) {
    if (count === limit) return { text: text.slice(0, end), cut: true };
    end += c.length;
    count++;
  }
  return { text, cut: false };
}

/** The number of characters (code points) of `text`. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * `text` in quotes for a message, shortened to `max` characters with an ellipsis and the full
 * length when longer; control characters shown as `\uXXXX` so a message stays on one line.
 */
export function quote(text: string, max = MAX_ECHO_CHARS): string {
  const head = firstChars(text, max);
  const shown = head.text.replace(
    /\p{Cc}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return head.cut ? `“${shown}…” (${COUNT.format(charCount(text))} characters)` : `“${shown}”`;
}

/** An attention string cut to what the models read, and the note that says so. */
export interface BoundedText {
  readonly text: string;
  /** Set when the text was cut. */
  readonly note?: string;
}

/** The attention string cut to `T` characters (T itself held to 1…MAX_ATTENTION_CHARS). */
export function boundAttentionText(text: string, T: number): BoundedText {
  const limit = Math.min(MAX_ATTENTION_CHARS, Math.max(1, Math.floor(T) || 1));
  const head = firstChars(text, limit);
  if (!head.cut) return { text };
  return {
    text: head.text,
    note: `Only the first ${limit} characters are used: the models read at most T = ${limit} at a time (you entered ${COUNT.format(charCount(text))}).`,
  };
}

/** What a number input accepts. */
export interface NumberSpec {
  /** The field's name in messages, e.g. "Steps". */
  readonly label: string;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** Used when the input holds no number at all. */
  readonly fallback: number;
}

/** A number input's value held to its spec, and the note that says what changed. */
export interface BoundedNumber {
  readonly value: number;
  /** Set when the value was changed; the raw text to put back in the input is `String(value)`. */
  readonly note?: string;
}

/** Reads a number input's raw text: a number in [min, max] (an integer if asked), or the fallback. */
export function boundNumber(raw: string, spec: NumberSpec): BoundedNumber {
  const range = `from ${spec.min} to ${spec.max}`;
  const text = raw.trim();
  const parsed = text === '' || text.length > MAX_NUMBER_CHARS ? Number.NaN : Number(text);
  if (Number.isNaN(parsed)) {
    const what = text === '' ? 'is empty' : `${quote(text, 12)} is not a number ${range}`;
    return { value: spec.fallback, note: `${spec.label} ${what}: ${spec.fallback} is used.` };
  }
  const clamped = Math.min(spec.max, Math.max(spec.min, parsed));
  const value = spec.integer ? Math.round(clamped) : clamped;
  if (value === parsed) return { value };
  const why =
    parsed < spec.min || parsed > spec.max ? `must be ${range}` : 'must be a whole number';
  return { value, note: `${spec.label} ${why}: ${value} is used.` };
}

/**
 * Holds a number input (anything with a string `value`) to its spec: writes the value used back
 * into the field when it had to change, and returns the note that says so.
 */
export function boundNumberField(field: { value: string }, spec: NumberSpec): string | undefined {
  const bounded = boundNumber(field.value, spec);
  if (bounded.note !== undefined) field.value = String(bounded.value);
  return bounded.note;
}
