// The speed scripts' `--name value` flags (scripts/benchEngine.ts, benchTraining.ts, benchPeers.ts).

/** The value after `--name` on the command line, or `fallback`. */
export function scriptArg(name: string): string | undefined;
export function scriptArg(name: string, fallback: string): string;
export function scriptArg(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
