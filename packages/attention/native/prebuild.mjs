// `pnpm --filter @boltzmann/attention build:prebuilds`: the release's prebuilt addon for this
// platform, prebuilds/<platform>-<arch>/@boltzmann+attention.node (one Node-API build serves every
// Node version), through prebuildify with the same node-gyp and local headers as native/install.mjs
// (offline: nothing is downloaded). Other platforms: run it there (see the README's "Install").
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localNodeDir, nodeGyp } from './nodeGyp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const gyp = nodeGyp(root);
if (gyp === undefined) {
  console.error(
    'build:prebuilds: node-gyp was not found (npm_config_node_gyp, a node-gyp package, npm)',
  );
  process.exit(1);
}
const env = { ...process.env, PREBUILD_NODE_GYP: gyp };
const nodeDir = localNodeDir();
if (env.npm_config_nodedir === undefined && nodeDir !== undefined) env.npm_config_nodedir = nodeDir;
const bin = createRequire(join(root, 'package.json')).resolve('prebuildify/bin.js');
const args = [bin, '--napi', '--strip', `--target=node@${process.versions.node}`];
const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
