/**
 * Test helper: runs `run` and returns what it threw as `{ code, message }` (`code` undefined for
 * an error without one), or `{ message: 'no error' }` when it returned, so a test asserts an
 * error's code and wording in one line whatever package's error class it is.
 *
 * @example
 * expect(thrownBy(() => plugin.create({ shots: 1e12 })).code).toBe('DQA_INVALID_ARGUMENT');
 */
export function thrownBy(run: () => unknown): { code?: string; message: string } {
  try {
    run();
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown } | null;
    const message = typeof e?.message === 'string' ? e.message : String(error);
    return typeof e?.code === 'string' ? { code: e.code, message } : { message };
  }
  return { message: 'no error' };
}
