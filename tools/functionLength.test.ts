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

/** A function Biome counts as `n` lines long (its body and closing brace). */
const fn = (name: string, n: number): string =>
  `export function ${name}(): number {\n  let x = 0;\n${'  x += 1;\n'.repeat(n - 2)}  return x;\n}\n`;

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
  it("is Biome's rule at 80 lines, an error (so `pnpm lint` fails too)", () => {
    expect(biome.linter.rules.complexity.noExcessiveLinesPerFunction).toMatchObject({
      level: 'error',
      options: { maxLines: 80 },
    });
  });

  it('passes a function of 80 lines and fails one of 81, naming it', () => {
    expect(check({ 'a.ts': fn('fits', 80) }).status).toBe(0);
    const r = check({ 'a.ts': fn('fits', 80) + fn('long', 81) });
    expect(r.stdout).toMatch(/^ +81 {2}a\.ts:\d+$/m);
    expect(r.stdout).toMatch(/^1 functions over 80 lines/m);
    expect(r.stderr).toMatch(/1 function\(s\) over the ceiling of 80 lines/);
    expect(r.status).toBe(1);
  });

  it('ignores tests', () => {
    const r = check({ 'a.ts': fn('short', 10), 'a.test.ts': fn('hugeTest', 300) });
    expect(r.stdout).toMatch(/none over the ceiling of 80 lines/);
    expect(r.status).toBe(0);
  });

  it('leaves a function kept whole under a biome-ignore with its reason', () => {
    const kept = `// biome-ignore lint/complexity/noExcessiveLinesPerFunction: measured: splitting costs 12 %\n${fn('kernel', 120)}`;
    expect(check({ 'a.ts': kept }).status).toBe(0);
  });
});
