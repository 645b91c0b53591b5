import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The plugin starter's README, followed literally (issue 43 point 6): every command of its ```sh
 * blocks, in order, run by bash with HOME a fresh folder outside the repository (so
 * `~/my-sampler-plugin` is a copy a plugin author would make). Each block starts at the
 * repository's root, as the README says; a `cd` moves the following commands. One stand-in: a bare
 * `npm install` must not reach the network here, so it does what npm does offline: the `file:`
 * tarballs extracted into node_modules (their own dependencies linked from the workspace's store),
 * every other dependency linked from this install at exactly the version the folder pins.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const README = join(root, 'templates', 'sampler-plugin', 'README.md');
// release:check's installer (a plain .mjs module): a tarball extracted as npm would, offline.
const { installTarball } = (await import(new URL('tarballImports.mjs', import.meta.url).href)) as {
  installTarball(project: string, tarball: string, packageDir: string): Manifest & { name: string };
};

/** The README's shell lines, block by block: continuations joined, comments dropped. */
function readmeBlocks(text: string): string[][] {
  const lines = text.split('\n');
  const blocks: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)$/.test(lines[i]!.trim())) continue;
    const block: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) {
      let line = lines[i]!;
      while (line.endsWith('\\') && i + 1 < lines.length)
        line = `${line.slice(0, -1)} ${lines[++i]!}`;
      line = line.replace(/(^|\s)#.*$/, '').trim();
      if (line !== '') block.push(line);
    }
    blocks.push(block);
  }
  return blocks;
}

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** What a bare `npm install` does in `folder`, offline. Returns what it installed, one line each. */
function offlineNpmInstall(folder: string): string[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
  const done: string[] = [];
  for (const [name, spec] of Object.entries({
    ...manifest.dependencies,
    ...manifest.devDependencies,
  })) {
    if (spec.startsWith('file:')) {
      const tarball = resolve(folder, spec.slice('file:'.length));
      const dir = join(root, 'packages', name.replace(/^@boltzmann\//, ''));
      const packed = installTarball(folder, tarball, dir);
      expect(packed.name).toBe(name);
      // Its runtime dependencies: none, or each one found in the workspace's install (linked above).
      for (const dep of Object.keys(packed.dependencies ?? {}))
        expect(existsSync(join(folder, 'node_modules', dep)), `${name} needs ${dep}`).toBe(true);
      done.push(`${name} from ${spec}`);
      continue;
    }
    // Linked from this install (unless a tarball's peer brought it already): the pinned version.
    const to = join(folder, 'node_modules', name);
    if (!existsSync(to)) symlinkSync(join(root, 'node_modules', name), to);
    const version = (
      JSON.parse(readFileSync(join(to, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect(version, `${name}: the folder pins ${spec}, this install has ${version}`).toBe(spec);
    linkBins(folder, to);
    done.push(`${name}@${version} linked`);
  }
  return done;
}

/**
 * npm's node_modules/.bin links for the package installed at `dir` (its manifest's `bin`), so the
 * folder's scripts (`npm test` is `vitest run`) find their commands as after a real `npm install`,
 * whatever PATH the test itself was started with.
 */
function linkBins(folder: string, dir: string): void {
  const { name, bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    bin?: string | Record<string, string>;
  };
  const bins = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : (bin ?? {});
  const binDir = join(folder, 'node_modules', '.bin');
  mkdirSync(binDir, { recursive: true });
  for (const [command, script] of Object.entries(bins)) {
    const link = join(binDir, command);
    if (!existsSync(link)) symlinkSync(resolve(dir, script), link);
  }
}

describe('templates/sampler-plugin/README.md, followed literally', () => {
  const home = mkdtempSync(join(tmpdir(), 'plugin-starter-home-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('reads its commands (the check is not vacuous)', () => {
    const all = readmeBlocks(readFileSync(README, 'utf8')).flat();
    expect(all).toContain('npm install');
    expect(all).toContain('npm test');
    expect(all.some((c) => c.startsWith('pnpm --filter @boltzmann/ising-core pack'))).toBe(true);
    expect(all.some((c) => c.includes('--plugin ~/my-sampler-plugin/src/mySampler.ts'))).toBe(true);
  });

  it('installs ising-core from its packed tarball, passes its tests and type check, and runs in the bench', () => {
    const env = {
      ...process.env,
      HOME: home,
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      CI: 'true',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    };
    const log: string[] = [];
    for (const block of readmeBlocks(readFileSync(README, 'utf8'))) {
      let cwd = root;
      for (const command of block) {
        const cd = /^cd\s+(\S+)$/.exec(command);
        if (cd !== undefined && cd !== null) {
          cwd = resolve(cwd, cd[1]!.replace(/^~(?=\/|$)/, home));
          continue;
        }
        if (command === 'npm install') {
          log.push(`$ npm install (offline)\n${offlineNpmInstall(cwd).join('\n')}`);
          continue;
        }
        const run = spawnSync('bash', ['-c', command], {
          cwd,
          env,
          encoding: 'utf8',
          timeout: 240_000,
        });
        log.push(`$ ${command}\n${run.stdout}${run.stderr}`);
        expect(
          run.status,
          `${command}\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        ).toBe(0);
      }
    }
    const plugin = join(home, 'my-sampler-plugin');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
    const output = log.join('\n').replace(/\x1b\[[0-9;]*m/g, '');
    // The folder holds the packed package (not a link into the repository) and passed its suite.
    expect(
      existsSync(join(plugin, 'node_modules', '@boltzmann', 'ising-core', 'dist', 'index.js')),
    ).toBe(true);
    expect(output).toMatch(/Test Files\s+\S*1 passed/);
    // `bench samplers` lists the plugin's typed options; the short run wrote its record.
    expect(output).toMatch(/my-exact-shots options:\n\s+shots\s+number = 4000/);
    const results = join(home, 'my-plugin-run');
    expect(readdirSync(results, { recursive: true }).some((f) => String(f).endsWith('.json'))).toBe(
      true,
    );
    // The tarball is what `pnpm pack` wrote, and the packed manifest names no workspace protocol.
    const packed = execFileSync(
      'tar',
      ['-xzOf', join(plugin, 'boltzmann-ising-core.tgz'), 'package/package.json'],
      {
        encoding: 'utf8',
      },
    );
    expect(packed).not.toContain('workspace:');
  }, 600_000);
});
