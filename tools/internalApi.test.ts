// @boltzmann/ising-core/internal holds only what the workspace's other packages and apps import
// from it (issue 43): a name nobody else imports belongs in ising-core's own files, or in its public
// API if users need it, not in a subpath outside semver.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The names inside `export { … }` / `export type { … }` / `import { … } from 'x'` lists. */
function names(list: string): string[] {
  return list
    .split(',')
    .map((n) => n.trim().replace(/^type\s+/, ''))
    .filter(Boolean);
}

function exported(): string[] {
  const text = readFileSync(join(root, 'packages/ising-core/src/internalApi.ts'), 'utf8');
  return [...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => names(m[1]!)).sort();
}

function importedElsewhere(): Set<string> {
  const files = execFileSync(
    'git',
    [
      'grep',
      '-l',
      '@boltzmann/ising-core/internal',
      '--',
      'packages',
      'apps',
      'tools',
      'templates',
    ],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts|mjs|js)$/.test(f) && !f.startsWith('packages/ising-core/'));
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@boltzmann\/ising-core\/internal'/g,
    ))
      for (const n of names(m[1]!)) used.add(n);
  }
  return used;
}

describe('@boltzmann/ising-core/internal', () => {
  it('exports only names another package or app imports', () => {
    const used = importedElsewhere();
    expect(used.size).toBeGreaterThan(10); // the scan finds the imports
    expect(exported().filter((n) => !used.has(n))).toEqual([]);
  });

  it('says it is internal and outside semver, in its docs and its package.json', () => {
    const source = readFileSync(join(root, 'packages/ising-core/src/internalApi.ts'), 'utf8');
    expect(source).toMatch(/@internal/);
    expect(source).toMatch(/not covered by semver/);
    const manifest = JSON.parse(
      readFileSync(join(root, 'packages/ising-core/package.json'), 'utf8'),
    );
    expect(manifest['//']).toMatch(/\.\/internal .*not covered by semver/);
  });
});
