import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const { dependencyRangeProblems } = (await import(
  new URL('dependencyRanges.mjs', import.meta.url).href
)) as { dependencyRangeProblems(manifest: unknown): string[] };

describe('published runtime dependencies take caret ranges', () => {
  it('every package under packages/', () => {
    const problems = readdirSync(join(root, 'packages')).flatMap((dir) => {
      const json = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
      return dependencyRangeProblems(json).map((p) => `${json.name}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it('refuses exact pins, tildes, stars and tags; takes carets and workspace:^', () => {
    const of = (range: string) => dependencyRangeProblems({ dependencies: { x: range } });
    for (const bad of ['15.2.0', '~15.2.0', '*', 'latest', '>=1', 'workspace:*'])
      expect(of(bad), bad).toHaveLength(1);
    for (const good of ['^15.2.0', '^3.1048.0', '^0.0.0', '^4.8.4', 'workspace:^', 'workspace:^0'])
      expect(of(good), good).toEqual([]);
  });
});
