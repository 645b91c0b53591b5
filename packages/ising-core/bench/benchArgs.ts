/** Helpers shared by this package's benchmark scripts (never part of the published package). */
import { scriptArg } from '../../../tools/scriptArgs.js';

/** The value of `--name` (declared by the script's `parseScriptArgs`, strict), or `fallback`. */
export function option(name: string, fallback: string): string {
  return scriptArg(name, fallback);
}

/** Median of a non-empty list of timings. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
