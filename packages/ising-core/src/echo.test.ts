import { describe, expect, it } from 'vitest';
import { echo } from './index.js';

describe('echo', () => {
  it('quotes strings and prints short values whole', () => {
    expect(echo('1-u')).toBe('"1-u"');
    expect(echo(3)).toBe('3');
    expect(echo({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(echo(undefined)).toBe('undefined');
    expect(echo(5n)).toBe('5n');
  });

  it('cuts long values and says how much was left out', () => {
    const long = 'x'.repeat(200_000);
    const out = echo(long);
    expect(out.length).toBeLessThan(160);
    expect(out.startsWith('"xxx')).toBe(true);
    expect(out).toContain('(199,883 more characters)');
    expect(echo('abcdef', 4)).toBe('"ab… (5 more characters)');
  });

  it('never throws on cycles or very deep nesting', () => {
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(echo(cyclic)).toBe('[object Object]');
    let deep: unknown = 1;
    for (let i = 0; i < 60_000; i++) deep = { a: deep };
    expect(echo(deep)).toBe('[object Object]');
  });
});
