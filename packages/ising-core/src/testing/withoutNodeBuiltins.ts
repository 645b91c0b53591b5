/**
 * Test helper: runs `run` as if this were not Node for the given built-ins (default: all of
 * them), by hiding them from `process.getBuiltinModule` — the way the isomorphic packages reach
 * Node (`nodeBuiltin`). The real function is restored afterwards, also when `run` throws.
 *
 * @summary Test helper: runs `run` as if this were not Node, for the given built-ins.
 * @example
 * import { threadInfo } from '@boltzmann/ising-core';
 * import { withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
 *
 * // As a bundle for a browser would see it: no worker_threads.
 * await withoutNodeBuiltins(() => console.log(threadInfo().available), ['node:worker_threads']);
 * @category Assertions
 */
export async function withoutNodeBuiltins<T>(
  run: () => T | Promise<T>,
  ids?: readonly string[],
): Promise<T> {
  const proc = process as { getBuiltinModule?: (id: string) => unknown };
  const real = proc.getBuiltinModule;
  proc.getBuiltinModule =
    ids === undefined ? undefined : (id: string) => (ids.includes(id) ? undefined : real?.(id));
  try {
    return await run();
  } finally {
    proc.getBuiltinModule = real;
  }
}
