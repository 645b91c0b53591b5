import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const playground = fileURLToPath(new URL('..', import.meta.url));

/**
 * `vite build` of the site prints what it wrote and nothing else: no bundler warning
 * (`[INEFFECTIVE_DYNAMIC_IMPORT]`, `[PLUGIN_TIMINGS]`, …), no "(!)" notice, no stderr.
 */
describe('the playground build output', () => {
  it('lists the files it wrote, with no warnings', () => {
    const out = mkdtempSync(join(tmpdir(), 'playground-build-'));
    try {
      const run = spawnSync(
        process.execPath,
        [join(playground, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out],
        {
          cwd: playground,
          encoding: 'utf8',
          timeout: 120_000,
          // vitest's NODE_ENV=test would make vite build a development bundle; NO_COLOR keeps it plain.
          env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', FORCE_COLOR: '0' },
        },
      );
      expect(run.status, run.stderr).toBe(0);
      const noise = `${run.stdout}\n${run.stderr}`
        .split('\n')
        .filter((line) => /\[[A-Z_]{3,}\]|\(!\)|warn/i.test(line));
      expect(noise).toEqual([]);
      expect(run.stderr.trim()).toBe('');
      expect(run.stdout).toMatch(/index\.html/);
      expect(run.stdout).toMatch(/✓ built in/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
