// The bench's atomic writes: ising-core's writeFileAtomic (the monorepo's one atomic writer) and
// the bench's JSON layout on top of it.
import { writeFileAtomic } from '@boltzmann/ising-core/internal';

export { writeFileAtomic } from '@boltzmann/ising-core/internal';

/**
 * `writeFileAtomic` (from `@boltzmann/ising-core`) for a JSON value: two-space indent unless
 * `compact`, and a final newline.
 *
 * @param path destination file.
 * @param value any JSON-serializable value.
 * @param compact write without indentation (large checkpoints).
 * @example
 * writeJsonAtomic(recordPath(dir, id), record);
 */
export function writeJsonAtomic(path: string, value: unknown, compact = false): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, compact ? undefined : 2)}\n`);
}
