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

/** Runs the README's `name` block as a user would (inside the package, so '@boltzmann/attention' resolves). */
function runReadmeBlock(name: string) {
  const dir = mkdtempSync(join(packageDir, '.readme-run-'));
  try {
    const script = join(dir, `${name}.mts`);
    writeFileSync(script, readmeBlock(name));
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    return spawnSync(
      process.execPath,
      ['--import', tsx, '--conditions=@boltzmann/source', script],
      {
        encoding: 'utf8',
        timeout: 120_000,
        cwd: packageDir,
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first and last loss a README example prints as `loss A → B`. */
function lossesOf(stdout: string): [number, number] {
  const m = /loss ([\d.]+) → ([\d.]+)/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  return [Number(m![1]), Number(m![2])];
}

describe('README examples', () => {
  it('the drop-in example runs exactly as written and lowers its loss', () => {
    const run = runReadmeBlock('drop-in');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [first, last] = lossesOf(run.stdout);
    expect(last).toBeLessThan(first);
  });

  it('the engine example runs exactly as written, on two threads, and lowers its loss', () => {
    const run = runReadmeBlock('engine');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const [first, last] = lossesOf(run.stdout);
    expect(last).toBeLessThan(0.5 * first);
    expect(run.stdout).toMatch(/\d+ trained parameters in the model/);
  });
});
