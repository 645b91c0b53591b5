/**
 * Test helper: runs `run` and returns the `code` property of whatever it threw (duck-typed, so it
 * reads any coded error), or `undefined` when it returned or threw something without a code.
 * Not part of the public API (only the package's own tests import it).
 *
 * @param run the call expected to throw.
 * @returns the thrown value's `code`, or `undefined`.
 */
export const errorCode = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};
