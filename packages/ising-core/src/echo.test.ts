import { describe, expect, it, vi } from 'vitest';
import { echo } from './internalApi.js';

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

describe('echo of huge values', () => {
  /** Every string JSON.stringify returned during `run`, so a test can see what was built. */
  function stringified(run: () => unknown): number[] {
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      run();
      return spy.mock.results.map((r) => (typeof r.value === 'string' ? r.value.length : 0));
    } finally {
      spy.mockRestore();
    }
  }

  it('cuts a 200 MiB string before quoting it', () => {
    const big = 'x'.repeat(200 * 1024 * 1024);
    let out = '';
    const built = stringified(() => {
      out = echo(big);
    });
    expect(out.length).toBeLessThanOrEqual(160);
    expect(out).toMatch(/^"x{118}… \(209,715,083 more characters\)$/);
    expect(Math.max(0, ...built)).toBeLessThan(1000);
  });

  it('never builds the whole JSON of a huge array or object', () => {
    const array = Array.from({ length: 2_000_000 }, (_, i) => i);
    const object = { head: 'x'.repeat(50 * 1024 * 1024), list: array };
    const outs: string[] = [];
    const built = stringified(() => {
      outs.push(echo(array), echo(object), echo(new Float64Array(5_000_000)));
    });
    expect(Math.max(0, ...built)).toBeLessThan(1000);
    for (const out of outs) expect(out.length).toBeLessThanOrEqual(160);
    expect(outs[0]).toMatch(/^\[0,1,2,3,4,5,.*… \(at least [\d,]+ more characters\)$/);
    expect(outs[1]).toMatch(/^\{"head":"xxxx.*… \(at least [\d,]+ more characters\)$/);
    expect(outs[2]).toMatch(/^\{"0":0,"1":0,.*… \(at least [\d,]+ more characters\)$/);
  });
});
