// Where node-gyp and the Node headers are, for native/install.mjs and native/prebuild.mjs.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';

/** npm's own folder, from the `npm` on PATH (its bin is a link into it, or a wrapper beside it). */
function npmFolder() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const bin = join(dir, 'npm');
    if (!existsSync(bin)) continue;
    for (const start of [
      dirname(realpathSync(bin)),
      join(dir, '..', 'lib', 'node_modules', 'npm'),
    ]) {
      for (let at = start; at !== dirname(at); at = dirname(at)) {
        const manifest = join(at, 'package.json');
        if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'npm')
          return at;
      }
    }
  }
  return undefined;
}

/** node-gyp's bin script, or undefined. */
export function nodeGyp(root) {
  const named = process.env.npm_config_node_gyp;
  if (named !== undefined && existsSync(named)) return named;
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {}
  const npm = npmFolder();
  const bundled = npm && join(npm, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return bundled !== undefined && existsSync(bundled) ? bundled : undefined;
}

/**
 * The running Node's own folder when its headers are installed there (Debian's /usr/include/node,
 * an official tarball's include/node): node-gyp's --nodedir, so it downloads nothing.
 */
export function localNodeDir() {
  const dir = resolve(dirname(process.execPath), '..');
  return existsSync(join(dir, 'include', 'node', 'node_api.h')) ? dir : undefined;
}
