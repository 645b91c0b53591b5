#!/usr/bin/env node
// Function length, measured by Biome's own rule (complexity/noExcessiveLinesPerFunction, set in
// biome.json at level "error" with maxLines 80; tests are exempt there). Biome counts the lines of
// a function's body. `pnpm lint` fails on a function over 80 lines; this script lists them, longest
// first, and fails on any (CI runs it beside the lint, so the failure names every long function).
// A function may stay longer only under a `biome-ignore` that gives a measured reason (one today:
// ising-core's linearVjp forward sweep, where a per-step function cost 10–14 %).
//
//   node tools/functionLength.mjs [paths…]   (default: the whole tree)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** Fail above this many lines: the rule's own limit (every function meets it since issue 25). */
const CEILING = 80;
/** The count when the rule came in (2026-12-03, issue 25): 33 functions over 80 lines, 22 over 100. */
const BASELINE = { over80: 33, over100: 22, longest: 210 };

const args = process.argv.slice(2);
const paths = args.length > 0 ? args : ['.'];

const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const run = spawnSync(
  process.execPath,
  [
    biome,
    // All rules, filtered below: `--only` would also switch the rule on in the tests, where
    // biome.json turns it off.
    'lint',
    '--reporter=json',
    '--max-diagnostics=none',
    '--diagnostic-level=info',
    ...paths,
  ],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`functionLength: biome gave no report (exit ${run.status})\n${run.stderr}`);
  process.exit(2);
}
const rows = [];
for (const d of report.diagnostics ?? []) {
  if (d.category !== 'lint/complexity/noExcessiveLinesPerFunction') continue;
  const lines = Number(/\((\d+)\)/.exec(d.message)?.[1]);
  if (!Number.isFinite(lines)) {
    console.error(`functionLength: cannot read a line count from "${d.message}"`);
    process.exit(2);
  }
  rows.push({ lines, where: `${d.location.path}:${d.location.start.line}` });
}
if (rows.length === 0 && run.status !== 0) {
  console.error(`functionLength: biome failed (exit ${run.status})\n${run.stderr}`);
  process.exit(2);
}
rows.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
for (const r of rows) console.log(`${String(r.lines).padStart(5)}  ${r.where}`);
const over = rows.filter((r) => r.lines > CEILING);
const over100 = rows.filter((r) => r.lines > 100).length;
console.log(
  `${rows.length} functions over 80 lines (${over100} over 100; longest ${rows[0]?.lines ?? 0}); ` +
    `baseline ${BASELINE.over80} over 80, ${BASELINE.over100} over 100, longest ${BASELINE.longest}`,
);
if (over.length > 0) {
  console.error(
    `${over.length} function(s) over the ceiling of ${CEILING} lines: split them by concept`,
  );
  for (const r of over) console.error(`  ${r.lines} lines  ${r.where}`);
  process.exit(1);
}
console.log(`none over the ceiling of ${CEILING} lines`);
