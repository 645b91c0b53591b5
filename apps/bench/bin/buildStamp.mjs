// The bench's built JavaScript (dist/, written by build.mjs) and whether it is still the build of
// the sources on disk. Light on purpose: bench.mjs reads it on every start, before choosing
// between dist/ and the TypeScript sources.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/bench. */
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** Where build.mjs writes the bench by default. */
export const DIST_DIR = join(BENCH_DIR, 'dist');
/** The stamp of a build: every file it read, with its mtime and size. Written last. */
export const STAMP_FILE = 'build.json';
/** Bumped when the layout of dist/ changes: an older build is then rebuilt. */
export const STAMP_VERSION = 1;

/**
 * Why the build in `distDir` may not run: missing, of another layout, or a file it was built from
 * has changed since (any change of mtime or size, earlier or later, including a deleted file).
 *
 * @param {string} [distDir]
 * @returns {string | undefined} undefined when the build is the build of the files on disk.
 */
export function staleReason(distDir = DIST_DIR) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(distDir, STAMP_FILE), 'utf8'));
  } catch {
    return `no build in ${distDir}`;
  }
  if (stamp?.version !== STAMP_VERSION || typeof stamp.inputs !== 'object')
    return 'the build is of an older layout';
  for (const [file, seen] of Object.entries(stamp.inputs)) {
    const now = statSync(file, { throwIfNoEntry: false });
    if (now === undefined) return `${file} is gone`;
    if (now.mtimeMs !== seen[0] || now.size !== seen[1]) return `${file} changed`;
  }
  return undefined;
}
