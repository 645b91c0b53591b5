// Part of `pnpm release:check`: every packed package installed in a folder outside the repository
// (the tarballs extracted into node_modules, their npm dependencies and non-workspace peers linked
// from this install, so nothing is fetched) and imported as ESM and required as CJS, on this Node
// and on each Node listed in RELEASE_CHECK_NODES (':'-separated paths; .ci/run passes Node 24's).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The Node binaries to import with: this one, then RELEASE_CHECK_NODES. */
export function checkNodes() {
  const extra = (process.env.RELEASE_CHECK_NODES ?? '').split(':').filter(Boolean);
  return [process.execPath, ...extra];
}

/** Links `dep` from the package's own node_modules in the workspace into the project, once. */
function linkDependency(project, packageDir, dep) {
  const to = join(project, 'node_modules', dep);
  if (dep.startsWith('@boltzmann/') || existsSync(to)) return;
  const from = join(packageDir, 'node_modules', dep);
  if (!existsSync(from)) return; // an optional peer this install does not have
  mkdirSync(dirname(to), { recursive: true });
  symlinkSync(realpathSync(from), to);
}

/**
 * Installs one packed package into `project` as npm would, without the network: the tarball
 * extracted into node_modules, its dependencies and peers linked from `packageDir`'s own install
 * in the workspace (those this install lacks, optional peers, are left out). Returns its manifest.
 */
export function installTarball(project, tarball, packageDir) {
  const name = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ).name;
  const into = join(project, 'node_modules', name);
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(into, 'package.json'), 'utf8'));
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }))
    linkDependency(project, packageDir, dep);
  return manifest;
}

/**
 * Imports every package from its tarball on every Node of `checkNodes()`. `packages` are the
 * workspace packages ({ dir, json }), `tarballs` their packed paths by name. Returns the problems.
 */
export function tarballImportProblems(packages, tarballs) {
  const project = mkdtempSync(join(tmpdir(), 'release-check-install-'));
  const problems = [];
  try {
    for (const { dir, json } of packages) installTarball(project, tarballs.get(json.name), dir);
    for (const node of checkNodes()) {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      for (const { json } of packages) {
        const name = JSON.stringify(json.name);
        const runs = [
          [
            'ESM',
            [
              '--input-type=module',
              '-e',
              `const m = await import(${name}); if (Object.keys(m).length === 0) process.exit(1);`,
            ],
          ],
          [
            'CJS',
            ['-e', `const m = require(${name}); if (Object.keys(m).length === 0) process.exit(1);`],
          ],
        ];
        for (const [format, args] of runs) {
          try {
            execFileSync(node, args, {
              cwd: project,
              stdio: ['ignore', 'pipe', 'pipe'],
              encoding: 'utf8',
            });
          } catch (error) {
            problems.push(
              `${json.name} does not load as ${format} on Node ${version}: ${String(error.stderr ?? error.message).slice(0, 400)}`,
            );
          }
        }
      }
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
  return problems;
}
