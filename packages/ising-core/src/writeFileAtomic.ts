import { IsingError } from './errors.js';
import { nodeBuiltin } from './nodeBuiltin.js';

let counter = 0;

/** `.<file name>.<pid>.<call>.<random>.tmp`: the temporary names {@link writeFileAtomic} makes. */
const TEMP_NAME = /^\.(.+)\.(\d+)\.(\d+)\.([0-9a-z]{0,6})\.tmp$/;

/**
 * The pid of the process that wrote a temporary file of {@link writeFileAtomic}, or undefined when
 * `name` is not one of its temporary names. A write killed before its rename leaves such a file;
 * a caller that owns the folder may remove those whose writer is gone.
 *
 * @param name a file name (no folder).
 * @example
 * atomicTempWriter('.summary.md.4242.3.k2x9qa.tmp'); // 4242
 * atomicTempWriter('summary.md'); // undefined
 */
export function atomicTempWriter(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[2]) : undefined;
}

/**
 * Writes `content` to `path` atomically: a temporary file in the same folder, then a rename, so a
 * reader (or a resumed run after a crash) sees the old file or the new one, never half of one.
 * Missing parent folders are created; on failure the temporary file is removed. The one atomic
 * writer of the monorepo (the bench's results, the datasets' download cache, attention's JSON
 * files). Node.js only, reached through {@link nodeBuiltin}, so the package still bundles for
 * browsers.
 *
 * @param path the destination file.
 * @param content text (written as UTF-8) or bytes, written as they are.
 * @throws {IsingError} ISING_UNSUPPORTED outside Node; the file system's own error when the
 *   write or the rename fails.
 * @example
 * writeFileAtomic('results/shakespeare/summary.md', markdown);
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const fs = nodeBuiltin<typeof import('node:fs')>('node:fs');
  const nodePath = nodeBuiltin<typeof import('node:path')>('node:path');
  if (fs === undefined || nodePath === undefined)
    throw new IsingError('ISING_UNSUPPORTED', 'writeFileAtomic needs Node.js (node:fs)');
  const dir = nodePath.dirname(path);
  fs.mkdirSync(dir, { recursive: true });
  counter += 1;
  // Hidden, and unique per process, call and thread (worker threads share the pid, not the counter).
  const unique = `${process.pid}.${counter}.${Math.random().toString(36).slice(2, 8)}`;
  const temp = nodePath.join(dir, `.${nodePath.basename(path)}.${unique}.tmp`);
  try {
    fs.writeFileSync(temp, content);
    fs.renameSync(temp, path);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
