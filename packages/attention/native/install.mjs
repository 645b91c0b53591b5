// The package's `install` script: makes the native engine addon (native/addon.c) ready, or says
// in one line why the engine will run on WebAssembly instead. Never fails the install.
//
// node-gyp-build's logic: a prebuild for this platform (prebuilds/<platform>-<arch>/) or an
// earlier build (build/Release/) that loads is enough. Otherwise `node-gyp rebuild`, pointed at
// the running Node's own headers when they are installed beside it (Debian's /usr/include/node,
// an official tarball's include/node), so nothing is downloaded; package managers do not all
// pass npm's `nodedir` (pnpm does not), and without it node-gyp fetches the headers from the
// network. node-gyp itself: the one the package manager names (npm_config_node_gyp), else one
// installed beside this package, else the copy npm bundles.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localNodeDir, nodeGyp } from './nodeGyp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const say = (line) => console.log(`@boltzmann/attention: ${line}`);

/** The addon's path if a prebuild or build is there and loads, else undefined. */
function loadable() {
  try {
    const build = require('node-gyp-build');
    const path = build.resolve(root);
    require(path);
    return path;
  } catch {
    return undefined;
  }
}

/** The last line of node-gyp's output that says what went wrong. */
function why(output) {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error =
    lines.findLast((l) =>
      /not found: (make|cc|gcc|g\+\+|python)|No such file|not found/i.test(l),
    ) ??
    lines.findLast(
      (l) =>
        /error/i.test(l) && !/gyp ERR! (cwd|node -v|node-gyp -v|command|System|not ok)/.test(l),
    ) ??
    lines.at(-1) ??
    'no output';
  return error.replace(/^gyp ERR! (stack )?/, '').slice(0, 200);
}

function fallback(reason) {
  say(`the native engine was not built (${reason}); the engine will run on WebAssembly.`);
  process.exit(0);
}

const ready = loadable();
if (ready !== undefined) {
  say(`native engine ready (${ready.slice(root.length + 1)})`);
  process.exit(0);
}
const gyp = nodeGyp(root);
if (gyp === undefined)
  fallback('node-gyp was not found: neither npm_config_node_gyp, a node-gyp package, nor npm');
const nodeDir = localNodeDir();
const args = [gyp, 'rebuild'];
if (process.env.npm_config_nodedir === undefined && nodeDir !== undefined)
  args.push(`--nodedir=${nodeDir}`);
const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 600_000 });
if (result.error !== undefined) fallback(`node-gyp did not run: ${result.error.message}`);
if (result.status !== 0)
  fallback(`node-gyp rebuild failed: ${why(`${result.stdout}\n${result.stderr}`)}`);
const built = loadable();
if (built === undefined) fallback('node-gyp rebuild succeeded but the addon does not load');
say(`native engine built from source (${built.slice(root.length + 1)})`);
