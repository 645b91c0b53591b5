import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';

let counter = 0;

/**
 * Writes `content` to `path` atomically: a temporary file in the same directory, then a
 * rename, so readers (and a resumed bench after a crash) see the old file or the new one,
 * never half of one. Parent directories are created.
 *
 * @param path destination file.
 * @param content text or bytes.
 * @example
 * writeFileAtomic('results/shakespeare/summary.md', markdown);
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  counter += 1;
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${counter}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * {@link writeFileAtomic} for a JSON value (two-space indent unless `compact`).
 *
 * @param path destination file.
 * @param value any JSON-serializable value.
 * @param compact write without indentation (large checkpoints).
 */
export function writeJsonAtomic(path: string, value: unknown, compact = false): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, compact ? undefined : 2)}\n`);
}
