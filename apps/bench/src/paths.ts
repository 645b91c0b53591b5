import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
