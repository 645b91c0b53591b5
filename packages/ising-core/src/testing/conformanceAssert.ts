// The conformance suite's assertions, with no test framework: each throws a ConformanceError
// naming what was violated, so the checks run under vitest, node:test, Jest or a plain script.

/**
 * A violated conformance check: `message` says what was expected and what came back.
 *
 * @category Conformance
 */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

/** Throws a {@link ConformanceError} with `message` unless `ok`. */
export function ensure(ok: boolean, message: string): asserts ok {
  if (!ok) throw new ConformanceError(message);
}

/** `actual` is `expected` (Object.is), else a {@link ConformanceError} naming `what`. */
export function ensureSame(actual: unknown, expected: unknown, what: string): void {
  ensure(
    Object.is(actual, expected),
    `${what}: expected ${String(expected)}, got ${String(actual)}`,
  );
}

/** Two float arrays hold the same values, entry by entry (Object.is), at the same length. */
export function ensureSameArray(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  what: string,
): void {
  ensureSame(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++)
    ensureSame(actual[i], expected[i], `${what}: entry ${i}`);
}

/** `run` throws or rejects with an error whose `code` is `code`. */
export async function ensureRejectsWithCode(
  run: () => unknown,
  code: string,
  what: string,
): Promise<void> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  ensure(error !== undefined, `${what}: expected an error with code ${code}, got none`);
  const got = (error as { code?: unknown }).code;
  ensure(got === code, `${what}: expected code ${code}, got ${String(got)} (${String(error)})`);
}
