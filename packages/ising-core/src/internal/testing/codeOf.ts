import { isIsingError } from '../../errors.js';

/**
 * Test helper: runs `f` and returns the `IsingError` code it threw, so a test can assert a code in
 * one line. Any other throw propagates, so a stray `TypeError` fails the test with its own stack.
 * Not part of the public API (only the package's own tests import it).
 *
 * @param f the call expected to throw.
 * @returns the thrown `IsingError` code, or `'no error'` when `f` returns.
 */
export const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (isIsingError(e)) return e.code;
    throw e;
  }
  return 'no error';
};
