import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Directory of the bench package (apps/bench). */
export function benchRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}

/** The monorepo root (the directory holding pnpm-workspace.yaml), else the bench root. */
export function repoRoot(): string {
  let dir = benchRoot();
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    dir = dirname(dir);
  }
  return benchRoot();
}

/**
 * Resolves a path the user typed. Under nx (which runs the script in apps/bench and does not
 * pass on the directory it was started from) relative paths resolve against the workspace
 * root; under pnpm against the directory pnpm was started from (`INIT_CWD`); else the cwd.
 *
 * @param p a path from a flag.
 * @returns an absolute path.
 */
export function userPath(p: string): string {
  if (isAbsolute(p)) return p;
  const nxRoot =
    process.env.NX_TASK_TARGET_PROJECT !== undefined ? process.env.NX_WORKSPACE_ROOT : undefined;
  return resolve(nxRoot ?? process.env.INIT_CWD ?? process.cwd(), p);
}
