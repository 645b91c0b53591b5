import { isDqaError } from '../../errors.js';

/**
 * Test helper: runs `f` and names how it ended, so a test can assert an error code in one line.
 * Not part of the public API (nothing outside the package's own tests imports it).
 *
 * @param f the call expected to throw.
 * @returns the `DqaError` code it threw, `'not a DqaError'` for any other throw, or `'no error'`.
 */
export const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return isDqaError(e) ? e.code : 'not a DqaError';
  }
  return 'no error';
};
