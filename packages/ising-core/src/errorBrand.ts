/**
 * The brand every `@boltzmann/*` error carries, under a registry symbol (`Symbol.for`), so that
 * it is the same symbol in every copy of every package. An application that loads a package
 * twice — its ESM and its CJS build, or two versions — still recognizes the errors of either
 * copy: `isIsingError(e)` and `e instanceof IsingError` check the brand, not the class object.
 */
export const ERROR_BRAND: unique symbol = Symbol.for('@boltzmann/error');

/**
 * True when `value` carries the brand of the error class named `name` (`'IsingError'`, …).
 *
 * @example
 * hasErrorBrand(error, 'AttentionError');
 */
export function hasErrorBrand(value: unknown, name: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [ERROR_BRAND]?: unknown })[ERROR_BRAND] === name
  );
}
