#!/usr/bin/env node
// Runs every vitest project once and prints the plain "N passed, N failed" line CI reads.
// Extra arguments are passed to vitest (e.g. `node tools/runTests.mjs --project ising-core`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A file's name as a reader finds it: relative to the repository when it lies inside. */
function fileName(path) {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/**
 * The lines to print for vitest's JSON report: one per failed file (suite), then the closing
 * count of tests only. A file can fail with no failed test (it threw at import, or a hook
 * failed), so failed files are named on their own lines and never added to the test count.
 */
function summarize(report, status) {
  const lines = [];
  if (report === undefined) lines.push(`vitest wrote no report (exit status ${status})`);
  for (const file of report?.testResults ?? []) {
    if (file.status !== 'failed') continue;
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed').length;
    const why =
      tests > 0
        ? `${tests} failed test${tests === 1 ? '' : 's'}`
        : `no test failed: ${(file.message || 'the file failed').split('\n')[0]}`;
    lines.push(`failed file: ${fileName(file.name)} (${why})`);
  }
  const passed = report?.numPassedTests ?? 0;
  const failed = report?.numFailedTests ?? 0;
  const skipped = (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0);
  // vitest itself failing (a config error, an unhandled error outside any test) fails the run too.
  if (report !== undefined && status !== 0 && lines.length === 0 && failed === 0)
    lines.push(`vitest exited with status ${status} (its output above says why)`);
  lines.push(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  // Any line above the count is a failure; so is a run in which no test passed.
  const ok = lines.length === 1 && failed === 0 && passed > 0 && status === 0;
  return { lines, code: ok ? 0 : 1 };
}

// A report file of this run's own: several runs at once (CI, a watcher, a colleague) never
// read or delete each other's.
const dir = mkdtempSync(join(tmpdir(), 'boltzmann-tests-'));
try {
  const out = join(dir, 'results.json');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [
      vitest,
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  const { lines, code } = summarize(report, run.status ?? 1);
  for (const line of lines) console.log(line);
  process.exitCode = code;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
