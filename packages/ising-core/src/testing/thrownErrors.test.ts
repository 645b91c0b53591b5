import { describe, expect, it } from 'vitest';
import { IsingError } from '../errors.js';
import { codeOf, rejectionOf, thrownBy } from './index.js';

const coded = (): never => {
  throw new IsingError('ISING_INVALID_ARGUMENT', 'bad');
};

describe('thrownBy, rejectionOf and codeOf', () => {
  it('should read the code of any coded error, and say when nothing was thrown', () => {
    expect(thrownBy(coded)).toEqual({
      code: 'ISING_INVALID_ARGUMENT',
      message: expect.any(String),
    });
    expect(thrownBy(() => 1)).toEqual({ message: 'no error' });
    expect(codeOf(coded)).toBe('ISING_INVALID_ARGUMENT');
    expect(codeOf(() => Object.assign(new Error('x'), { code: 'DQA_X' }))).toBe('no error');
    expect(codeOf(() => Promise.resolve(1) as unknown)).toBeInstanceOf(Promise);
  });

  it('should rethrow a throw without a code, so a stray TypeError fails the test itself', async () => {
    const stray = new TypeError('stray');
    expect(() =>
      codeOf(() => {
        throw stray;
      }),
    ).toThrow(stray);
    await expect(codeOf(Promise.reject(stray))).rejects.toBe(stray);
  });

  it('should await promises and calls that return or throw before returning one', async () => {
    const rejected = (): Promise<never> =>
      Promise.reject(Object.assign(new Error('m'), { code: 'C' }));
    expect(await codeOf(rejected())).toBe('C');
    expect(await codeOf(rejected)).toBe('C');
    expect(await codeOf(Promise.resolve(2))).toBe('no error');
    expect(await rejectionOf(rejected())).toEqual({ code: 'C', message: 'm' });
    expect(await rejectionOf(coded)).toMatchObject({ code: 'ISING_INVALID_ARGUMENT' });
    expect(await rejectionOf(Promise.reject('text'))).toEqual({ message: 'text' });
    expect(await rejectionOf(async () => 3)).toEqual({ message: 'no error' });
  });
});
