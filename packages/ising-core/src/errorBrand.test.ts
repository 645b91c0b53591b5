import { describe, expect, it } from 'vitest';
import { IsingError, isIsingError } from './index.js';
import { ERROR_BRAND } from './internalApi.js';

describe('errors recognized across copies of a package', () => {
  it('an IsingError from a second copy of the module (a fresh instance, as a dual ESM/CJS load gives) is recognized', async () => {
    // The query string makes Vite evaluate errors.ts again: a different IsingError class object.
    const second = './errors.js?second-copy';
    const copy = (await import(/* @vite-ignore */ second)) as typeof import('./errors.js');
    expect(copy.IsingError).not.toBe(IsingError);
    const foreign = new copy.IsingError('ISING_NOT_FINITE', 'from the other copy');
    expect(isIsingError(foreign)).toBe(true);
    expect(isIsingError(foreign, 'ISING_NOT_FINITE')).toBe(true);
    expect(isIsingError(foreign, 'ISING_SHAPE_MISMATCH')).toBe(false);
    expect(foreign instanceof IsingError).toBe(true);
    expect(copy.isIsingError(new IsingError('ISING_INVALID_ARGUMENT', 'from this copy'))).toBe(
      true,
    );
    expect(foreign[ERROR_BRAND]).toBe('IsingError');
    expect(ERROR_BRAND).toBe(Symbol.for('@boltzmann/error'));
  });

  it('other errors, and other packages’ errors, are not IsingErrors', () => {
    expect(isIsingError(new Error('plain'))).toBe(false);
    expect(isIsingError({ code: 'ISING_NOT_FINITE' })).toBe(false);
    expect(isIsingError(null)).toBe(false);
    expect(isIsingError(Object.assign(new Error('x'), { [ERROR_BRAND]: 'AttentionError' }))).toBe(
      false,
    );
    expect(new Error('plain') instanceof IsingError).toBe(false);
  });
});
