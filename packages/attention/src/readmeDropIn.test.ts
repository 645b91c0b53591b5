import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The code block that follows `<!-- readme-example: NAME -->` in this package's README. */
function readmeBlock(name: string): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- readme-example: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(
    readme,
  );
  if (!match) throw new Error(`README has no "${name}" example`);
  return match[1]!;
}

describe('README drop-in example', () => {
  it('runs exactly as written and lowers its loss', () => {
    // Written inside the package so '@boltzmann/attention' resolves as it does for a user.
    const dir = mkdtempSync(join(packageDir, '.readme-run-'));
    try {
      const script = join(dir, 'dropIn.mts');
      writeFileSync(script, readmeBlock('drop-in'));
      const tsx = pathToFileURL(require.resolve('tsx')).href;
      const run = spawnSync(
        process.execPath,
        ['--import', tsx, '--conditions=@boltzmann/source', script],
        { encoding: 'utf8', timeout: 120_000, cwd: packageDir },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const m = /loss ([\d.]+) → ([\d.]+)/.exec(run.stdout);
      expect(m, run.stdout).not.toBeNull();
      expect(Number(m![2])).toBeLessThan(Number(m![1]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
