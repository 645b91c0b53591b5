// The bench's atomic writes: ising-core's writeFileAtomic (the monorepo's one atomic writer) and
// the bench's JSON layout on top of it, and the sweep of what a killed write left behind.
import { readdirSync, rmSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { atomicTempWriter, writeFileAtomic } from '@boltzmann/ising-core/internal';
import { alive } from './resultsLock.js';

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

/** How deep the sweep looks: the results folder and its run folders (runs/, checkpoints/, models/, …). */
const SWEEP_DEPTH = 2;

/**
 * Removes the temporary files that writes killed before their rename left in a results folder:
 * only names `writeFileAtomic` makes (see `atomicTempWriter`), and only those whose writer process
 * is gone; other files, links and a live writer's files stay. Call it holding the folder's lock
 * (`lockResults`), so no other bench writes there.
 *
 * @param dir the results folder.
 * @returns the paths removed.
 * @example
 * const release = lockResults(dir);
 * sweepStaleTemps(dir);
 */
export function sweepStaleTemps(dir: string, depth = SWEEP_DEPTH): string[] {
  const removed: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return removed; // A folder that is not there (yet) has nothing to sweep.
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth > 0) removed.push(...sweepStaleTemps(path, depth - 1));
    if (!entry.isFile()) continue;
    const writer = atomicTempWriter(entry.name);
    if (writer === undefined || alive(writer)) continue;
    rmSync(path, { force: true });
    removed.push(path);
  }
  return removed;
}
