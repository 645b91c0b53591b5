import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `pnpm functions:check` (tools/functionLength.mjs over Biome's noExcessiveLinesPerFunction) on a
 * fixture folder whose biome.json carries the repository's own rule settings and test exemption.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const biome = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as {
  overrides: unknown[];
  linter: { rules: { complexity: { noExcessiveLinesPerFunction: unknown } } };
};
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A function whose body has `n` lines. */
const fn = (name: string, n: number): string =>
  `export function ${name}(): number {\n  let x = 0;\n${'  x += 1;\n'.repeat(n - 3)}  return x;\n}\n`;

function check(files: Record<string, string>, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'function-length-'));
  dirs.push(dir);
  const config = {
    vcs: { enabled: false },
    overrides: biome.overrides,
    linter: {
      enabled: true,
      rules: {
        complexity: {
          noExcessiveLinesPerFunction: biome.linter.rules.complexity.noExcessiveLinesPerFunction,
        },
      },
    },
  };
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const r = spawnSync(process.execPath, [join(root, 'tools/functionLength.mjs'), ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('pnpm functions:check', () => {
  it("is Biome's rule at 80 lines, reported as info", () => {
    expect(biome.linter.rules.complexity.noExcessiveLinesPerFunction).toMatchObject({
      level: 'info',
      options: { maxLines: 80 },
    });
  });

  it('lists the functions over 80 lines and passes under the ceiling', () => {
    const r = check({ 'a.ts': fn('short', 60) + fn('long', 120) });
    expect(r.stdout).toMatch(/^ +\d+ {2}a\.ts:\d+$/m);
    expect(r.stdout).toMatch(/^1 functions over 80 lines/m);
    expect(r.stdout).toMatch(/none over the ceiling of 250 lines/);
    expect(r.status).toBe(0);
  });

  it('fails on a function over the ceiling, and ignores tests', () => {
    const r = check({ 'a.ts': fn('huge', 300), 'a.test.ts': fn('hugeTest', 300) });
    expect(r.stderr).toMatch(/1 function\(s\) over the ceiling of 250 lines/);
    expect(r.stderr).toMatch(/a\.ts:1/);
    expect(r.stderr).not.toMatch(/a\.test\.ts/);
    expect(r.status).toBe(1);
  });

  it('takes a lower ceiling', () => {
    expect(check({ 'a.ts': fn('long', 120) }, '--ceiling', '100').status).toBe(1);
  });
});
