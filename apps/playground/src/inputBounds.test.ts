import { describe, expect, it } from 'vitest';
import {
  MAX_ATTENTION_CHARS,
  MAX_ECHO_CHARS,
  boundAttentionText,
  boundNumber,
  boundNumberField,
  firstChars,
  quote,
} from './inputBounds.js';
import { LENGTHS } from './training/trainConfig.js';

const HUGE = '('.repeat(1_200_000);
const STEPS = { label: 'Steps', min: 1, max: 20_000, integer: true, fallback: 300 };

describe('the attention string', () => {
  it('is held to the largest T the page offers', () => {
    expect(MAX_ATTENTION_CHARS).toBe(Math.max(...LENGTHS));
  });

  it('passes through unchanged, with no note, when it fits T', () => {
    expect(boundAttentionText('(()[])', 8)).toEqual({ text: '(()[])' });
    expect(boundAttentionText('', 8)).toEqual({ text: '' });
  });

  it('is cut to T characters with a short note, however long the paste', () => {
    const started = performance.now();
    const bounded = boundAttentionText(HUGE, 8);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(bounded.text).toBe('(((((((('); // eight
    expect(bounded.note).toBe(
      'Only the first 8 characters are used: the models read at most T = 8 at a time (you entered 1,200,000).',
    );
    expect(bounded.note!.length).toBeLessThan(160);
  });

  it('never keeps more than MAX_ATTENTION_CHARS, whatever T it is given', () => {
    for (const T of [1e9, Number.POSITIVE_INFINITY, Number.NaN, -3, 0]) {
      const { text } = boundAttentionText(HUGE, T);
      expect(text.length).toBeGreaterThanOrEqual(1);
      expect(text.length).toBeLessThanOrEqual(MAX_ATTENTION_CHARS);
    }
  });

  it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
    expect(firstChars('😀😀😀', 2)).toEqual({ text: '😀😀', cut: true });
    expect(boundAttentionText('ab😀cd', 3).text).toBe('ab😀');
    expect(boundAttentionText('😀😀', 2)).toEqual({ text: '😀😀' });
  });
});

describe('echoing user input in a message', () => {
  it('quotes short text whole', () => {
    expect(quote('(x')).toBe('“(x”');
  });

  it('shows at most MAX_ECHO_CHARS characters of a long text, and its length', () => {
    const shown = quote(HUGE);
    expect(shown).toBe(`“${'('.repeat(MAX_ECHO_CHARS)}…” (1,200,000 characters)`);
    expect(shown.length).toBeLessThanOrEqual(120);
  });

  it('keeps a message on one line: control characters are shown escaped', () => {
    expect(quote('a\nb\u0000')).toBe('“a\\u000ab\\u0000”');
  });
});

describe('number inputs', () => {
  it('keep a value inside the range, with no note', () => {
    expect(boundNumber('100', STEPS)).toEqual({ value: 100 });
    expect(boundNumber(' 20000 ', STEPS)).toEqual({ value: 20_000 });
  });

  it('clamp a value outside the range and say so', () => {
    expect(boundNumber('99999', STEPS)).toEqual({
      value: 20_000,
      note: 'Steps must be from 1 to 20000: 20000 is used.',
    });
    expect(boundNumber('-5', STEPS).value).toBe(1);
    expect(boundNumber('1e308', STEPS).value).toBe(20_000);
    expect(boundNumber('Infinity', STEPS).value).toBe(20_000);
  });

  it('round a fraction where a whole number is needed', () => {
    expect(boundNumber('12.4', STEPS)).toEqual({
      value: 12,
      note: 'Steps must be a whole number: 12 is used.',
    });
    const lr = { label: 'Learning rate', min: 0.0001, max: 0.1, integer: false, fallback: 0.01 };
    expect(boundNumber('0.005', lr)).toEqual({ value: 0.005 });
  });

  it('fall back on empty or non-numeric text, echoing only a few characters of it', () => {
    expect(boundNumber('', STEPS)).toEqual({ value: 300, note: 'Steps is empty: 300 is used.' });
    expect(boundNumber('abc', STEPS)).toEqual({
      value: 300,
      note: 'Steps “abc” is not a number from 1 to 20000: 300 is used.',
    });
    const long = boundNumber('9'.repeat(600_000), STEPS);
    expect(long.value).toBe(300);
    expect(long.note!.length).toBeLessThan(120);
    expect(long.note).toContain('(600,000 characters)');
  });
});

describe('a number field', () => {
  it('gets the value used written back, and only when it changed', () => {
    const field = { value: '99999' };
    expect(boundNumberField(field, STEPS)).toBe('Steps must be from 1 to 20000: 20000 is used.');
    expect(field.value).toBe('20000');
    const fine = { value: '12' };
    expect(boundNumberField(fine, STEPS)).toBeUndefined();
    expect(fine.value).toBe('12');
  });
});
