// pnpm hooks. Only `beforePacking`: what `pnpm pack` / `pnpm publish` put in a tarball's
// package.json. The workspace's scripts (build, test, bench) and the `@boltzmann/source`
// export condition (which points into src/, not shipped) are for this repository only.

/** Drops the `@boltzmann/source` condition from an exports map, recursively. */
function withoutSourceCondition(exports) {
  if (exports === null || typeof exports !== 'object' || Array.isArray(exports)) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== '@boltzmann/source')
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

function beforePacking(pkg) {
  const { scripts: _scripts, devDependencies: _dev, ...rest } = pkg;
  return { ...rest, exports: withoutSourceCondition(pkg.exports) };
}

export const hooks = { beforePacking };
