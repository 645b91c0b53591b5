// Part of `pnpm release:check` (and tools/dependencyRanges.test.ts): a published package's runtime
// dependencies take caret ranges (`^15.2.0`), so an install can share one copy with the user's own
// and take their fixes; an exact pin (`15.2.0`) forces a second copy and freezes it. The lockfile
// still pins what this repository tests. Workspace ranges must be caret ones too (`workspace:^`).

/** What is wrong with the ranges of `manifest.dependencies` (a package.json, source or packed). */
export function dependencyRangeProblems(manifest) {
  const problems = [];
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    const text = String(range);
    const bare = text.startsWith('workspace:') ? text.slice('workspace:'.length) : text;
    if (!/^\^(\d+(\.\d+){0,2}(-[\w.]+)?)?$/.test(bare))
      problems.push(
        `dependency ${name} has the range ${JSON.stringify(text)}: use a caret range (^x.y.z)`,
      );
  }
  return problems;
}
