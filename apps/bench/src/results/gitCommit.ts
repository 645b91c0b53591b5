import { execFileSync } from 'node:child_process';
import { repoRoot } from '../paths.js';

let cached: string | null | undefined;

/** `git rev-parse HEAD` of the repository, or null when git or the repository is absent. */
export function gitCommit(): string | null {
  if (cached !== undefined) return cached;
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: repoRoot(),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    cached = /^[0-9a-f]{40}$/.test(out.toString().trim()) ? out.toString().trim() : null;
  } catch {
    cached = null;
  }
  return cached;
}
