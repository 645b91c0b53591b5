import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `node tools/runTests.mjs` (the test command CI reads) on tiny fixture folders of its own: the
 * closing line counts tests only, and failed files are named on lines of their own above it.
 */
const script = fileURLToPath(new URL('runTests.mjs', import.meta.url));
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the script on a folder holding `files`, with a config of its own (globals: the fixture is outside the repo, where `vitest` does not resolve). */
function runOn(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'run-tests-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    "export default { test: { globals: true, include: ['*.test.js'] } };\n",
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  // The fixture's vitest must not think it runs inside this one.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV'),
  );
  const run = spawnSync(
    process.execPath,
    [script, '--config', join(dir, 'vitest.config.mjs'), '--root', dir],
    { encoding: 'utf8', env, timeout: 60_000 },
  );
  const lines = run.stdout.trim().split('\n');
  const report = /JSON report written to (.+)$/m.exec(run.stdout)?.[1]?.trim();
  return { status: run.status, lines, last: lines.at(-1), report };
}

describe('tools/runTests.mjs', () => {
  it('counts one failing and one passing test as "1 passed, 1 failed", and names the failed file', () => {
    const { status, lines, last } = runOn({
      'mixed.test.js':
        "it('passes', () => expect(1).toBe(1));\nit('fails', () => expect(1).toBe(2));\n",
    });
    expect(last).toBe('1 passed, 1 failed');
    expect(status).toBe(1);
    expect(lines.some((l) => /^failed file: \S*mixed\.test\.js \(1 failed test\)$/.test(l))).toBe(
      true,
    );
  }, 60_000);

  it('fails the run and names a file that throws at import, though no test failed', () => {
    const { status, lines, last } = runOn({
      'fine.test.js': "it('passes', () => expect(1).toBe(1));\n",
      'broken.test.js': "throw new Error('boom at import');\n",
    });
    expect(last).toBe('1 passed, 0 failed');
    expect(status).toBe(1);
    expect(lines.some((l) => /^failed file: .*broken\.test\.js .*boom at import/.test(l))).toBe(
      true,
    );
  }, 60_000);

  it('passes a run where every test passes, with skipped tests counted apart', () => {
    const { status, last } = runOn({
      'fine.test.js': "it('passes', () => expect(1).toBe(1));\nit.skip('later', () => {});\n",
    });
    expect(last).toBe('1 passed, 0 failed, 1 skipped');
    expect(status).toBe(0);
  }, 60_000);

  it('reads a report file of its own, outside the repository, so runs at once never share one', () => {
    const files = { 'fine.test.js': "it('passes', () => expect(1).toBe(1));\n" };
    const [a, b] = [runOn(files), runOn(files)];
    expect(a.report).toBeDefined();
    expect(a.report).not.toBe(b.report);
    expect(a.report!.startsWith(fileURLToPath(new URL('..', import.meta.url)))).toBe(false);
    expect(existsSync(a.report!), 'removed after the run').toBe(false);
  }, 60_000);
});
