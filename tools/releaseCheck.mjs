// `pnpm release:check`: what `changeset publish` would publish, checked before it is.
// Builds every package, packs each one as pnpm would publish it (workspace: ranges
// replaced), and runs publint and arethetypeswrong on the tarball. Exits 1 on any problem.
// Offline: nothing is fetched or uploaded. `--out <dir>` keeps the tarballs there (to install the
// packages from them before they are on npm).
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dependencyRangeProblems } from './dependencyRanges.mjs';
import { checkNodes, tarballImportProblems } from './tarballImports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, cwd = root) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
// The pnpm that runs this script (`pnpm release:check`), else the one on PATH.
const pnpm = (args, cwd) => {
  const self = process.env.npm_execpath;
  if (self === undefined || !self.includes('pnpm')) return run('pnpm', args, cwd);
  // pnpm ≥ 11 is a native executable; older ones are a script for node.
  return /\.[cm]?js$/.test(self)
    ? run(process.execPath, [self, ...args], cwd)
    : run(self, args, cwd);
};

const packages = readdirSync(join(root, 'packages'))
  .map((dir) => ({
    dir: join(root, 'packages', dir),
    json: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
  }))
  .filter((p) => p.json.private !== true);

console.log(`release:check: building ${packages.length} packages`);
run(bin('nx'), [
  'run-many',
  '-t',
  'build',
  '--projects',
  packages.map((p) => p.json.name).join(','),
  '--output-style',
  'static',
]);

/**
 * Loads the packed ising-core's CJS and ESM builds side by side (two copies of the error class)
 * and checks that each recognizes the other's errors (the `Symbol.for` brand).
 */
function dualLoadProblems(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'release-check-dual-'));
  try {
    run('tar', ['-xzf', tarball, '-C', dir]);
    const pkg = join(dir, 'package');
    const script = `
      const { createRequire } = await import('node:module');
      const cjs = createRequire(${JSON.stringify(join(pkg, 'package.json'))})(${JSON.stringify(join(pkg, 'dist', 'index.cjs'))});
      const esm = await import(${JSON.stringify(join(pkg, 'dist', 'index.js'))});
      const fromCjs = new cjs.IsingError('ISING_NOT_FINITE', 'cjs');
      const ok = cjs.IsingError !== esm.IsingError && esm.isIsingError(fromCjs, 'ISING_NOT_FINITE') && cjs.isIsingError(new esm.IsingError('ISING_NOT_FINITE', 'esm')) && fromCjs instanceof esm.IsingError;
      process.exit(ok ? 0 : 1);`;
    run(process.execPath, ['--input-type=module', '-e', script]);
    return [];
  } catch (error) {
    return [
      `the ESM and CJS builds do not recognize each other's IsingError: ${String(error.stderr ?? error.message).slice(0, 400)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What a tarball must not ship: tests, test kits, fixtures and sources (the dist has them in its
 * source maps), nor the workspace's scripts or the `@boltzmann/source` condition (.pnpmfile.mjs
 * drops both at pack time).
 */
function contentProblems(tarball) {
  const files = run('tar', ['-tzf', tarball]).split('\n').filter(Boolean);
  const unwanted = files.filter((f) =>
    /\.test\.[cm]?[jt]s$|\/fixtures\/|\/testUtils\.|Testkit\.|\/internal\/testing\/|^package\/src\//.test(
      f,
    ),
  );
  const problems =
    unwanted.length === 0 ? [] : [`ships test files, fixtures or sources: ${unwanted.join(', ')}`];
  const manifest = run('tar', ['-xzOf', tarball, 'package/package.json']);
  if (JSON.parse(manifest).scripts !== undefined)
    problems.push('its package.json keeps the workspace scripts');
  if (manifest.includes('@boltzmann/source'))
    problems.push('its exports keep the @boltzmann/source condition (src/ is not shipped)');
  return problems;
}

/**
 * Bundles `@boltzmann/attention`, installed from its tarball and ising-core's in a folder outside
 * the repository (tfjs linked from this install), with plain esbuild for the browser: no
 * `external`, no conditions. Returns the problems.
 */
async function browserBundleProblems(tarballs) {
  const dir = mkdtempSync(join(tmpdir(), 'release-check-browser-'));
  try {
    for (const name of ['@boltzmann/attention', '@boltzmann/ising-core']) {
      const into = join(dir, 'node_modules', name);
      mkdirSync(into, { recursive: true });
      run('tar', ['-xzf', tarballs.get(name), '-C', into, '--strip-components=1']);
    }
    symlinkSync(
      realpathSync(join(root, 'packages', 'attention', 'node_modules', '@tensorflow')),
      join(dir, 'node_modules', '@tensorflow'),
    );
    writeFileSync(
      join(dir, 'entry.js'),
      "import { createTransformer, createEngineTrainer } from '@boltzmann/attention';\nconsole.log(createTransformer, createEngineTrainer);\n",
    );
    const { build } = await import('esbuild');
    await build({
      absWorkingDir: dir,
      entryPoints: ['entry.js'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outfile: join(dir, 'out.js'),
      logLevel: 'silent',
    });
    return [];
  } catch (error) {
    return [
      `plain esbuild --platform=browser cannot bundle it: ${String(error.message).slice(0, 600)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs ising-core's conformance checks on its exact sampler under `node:test`, from the tarball
 * installed alone in a folder outside the repository (no vitest there). Returns the problems.
 */
function nodeTestProblems(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'release-check-node-test-'));
  try {
    const into = join(dir, 'node_modules', '@boltzmann', 'ising-core');
    mkdirSync(into, { recursive: true });
    run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
    const test = [
      "import test from 'node:test';",
      "import { exactSampler } from '@boltzmann/ising-core';",
      "import { CONFORMANCE_CHECKS, CONFORMANCE_TITLES, runConformanceCheck } from '@boltzmann/ising-core/testing';",
      'for (const check of CONFORMANCE_CHECKS)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the test file's own template literal
      '  test(`${check}: ${CONFORMANCE_TITLES[check]}`, () => runConformanceCheck(check, exactSampler));',
    ].join('\n');
    writeFileSync(join(dir, 'conformance.test.mjs'), `${test}\n`);
    const report = run(process.execPath, ['--test', 'conformance.test.mjs'], dir);
    const passed = Number(/^# pass (\d+)/m.exec(report)?.[1] ?? 0);
    return passed === 12
      ? []
      : [`node:test ran ${passed} of the 12 conformance checks:\n${report}`];
  } catch (error) {
    return [
      `the conformance checks do not run under node:test: ${String(error.stdout ?? '')}${String(error.stderr ?? error.message)}`.slice(
        0,
        1200,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const out = mkdtempSync(join(tmpdir(), 'release-check-'));
const tarballs = new Map();
let failed = 0;
let pendingBundle = false;
try {
  for (const { dir, json } of packages) {
    const problems = [];
    for (const field of ['license', 'repository', 'homepage', 'engines', 'keywords'])
      if (json[field] === undefined) problems.push(`package.json has no "${field}"`);
    // pnpm pack: the tarball `changeset publish` uploads (workspace: ranges resolved).
    const tarball = pnpm(['pack', '--pack-destination', out], dir).trim().split('\n').pop().trim();
    const path = tarball.startsWith('/') ? tarball : join(out, tarball);
    for (const [tool, args] of [
      ['publint', [path, '--strict']],
      ['attw', [path, '--format', 'ascii']],
    ]) {
      try {
        run(bin(tool), args);
      } catch (error) {
        problems.push(
          `${tool}:\n${String(error.stdout ?? '')}${String(error.stderr ?? '')}`.trimEnd(),
        );
      }
    }
    const manifest = JSON.parse(run('tar', ['-xOzf', path, 'package/package.json']));
    const ranges = Object.entries({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
    }).filter(([, v]) => String(v).startsWith('workspace:'));
    if (ranges.length > 0)
      problems.push(
        `the packed package.json still has workspace: ranges (${ranges.map(([k]) => k).join(', ')})`,
      );
    problems.push(...dependencyRangeProblems(manifest));
    // One ising-core per install (one worker pool, one registry): a peer everywhere, never a dependency.
    if (manifest.dependencies?.['@boltzmann/ising-core'] !== undefined)
      problems.push('@boltzmann/ising-core is a dependency; it must be a peer dependency');
    if (readFileSync(join(dir, 'LICENSE'), 'utf8').length === 0) problems.push('LICENSE is empty');
    if (json.name === '@boltzmann/ising-core')
      problems.push(...dualLoadProblems(path), ...nodeTestProblems(path));
    problems.push(...contentProblems(path));
    tarballs.set(json.name, path);
    if (json.name === '@boltzmann/attention') pendingBundle = true;
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} ${json.name}@${json.version} (${path.split('/').pop()})`,
    );
    for (const p of problems) console.log(`     ${p.replace(/\n/g, '\n     ')}`);
    if (problems.length > 0) failed++;
  }
  if (pendingBundle) {
    const problems = await browserBundleProblems(tarballs);
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} @boltzmann/attention bundles for the browser`,
    );
    for (const p of problems) console.log(`     ${p.replace(/\n/g, '\n     ')}`);
    if (problems.length > 0) failed++;
  }
  const importProblems = tarballImportProblems(packages, tarballs);
  const nodes = checkNodes().length;
  console.log(
    `${importProblems.length === 0 ? 'ok  ' : 'FAIL'} every package installed from its tarball loads as ESM and CJS on ${nodes} Node version${nodes > 1 ? 's' : ''}`,
  );
  for (const p of importProblems) console.log(`     ${p.replace(/\n/g, '\n     ')}`);
  if (importProblems.length > 0) failed++;
  const keep = process.argv.indexOf('--out');
  if (keep >= 0 && process.argv[keep + 1] !== undefined) {
    const dir = resolve(process.argv[keep + 1]);
    mkdirSync(dir, { recursive: true });
    for (const path of tarballs.values()) copyFileSync(path, join(dir, basename(path)));
    console.log(`release:check: the tarballs are in ${dir}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`release:check: ${packages.length - failed} packages ready, ${failed} with problems`);
process.exit(failed === 0 ? 0 : 1);
