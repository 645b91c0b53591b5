// Event files read back by the independent Python reader
// (apps/bench/scripts/tensorboardRead.py), run with python3.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const READER = fileURLToPath(
  new URL('../../../scripts/tensorboardRead.py', import.meta.url),
);

/** What the reader prints of a run's event files. */
export interface ReadBack {
  readonly files: string[];
  readonly records: number;
  readonly fileVersions: string[];
  readonly sessionStarts: number[];
  readonly scalars: Record<string, [number, number][]>;
  readonly images: Record<
    string,
    {
      step: number;
      width: number;
      height: number;
      colorspace: number;
      png: { width: number; height: number };
    }[]
  >;
  readonly hparams: Record<string, number | string | boolean>;
  readonly sessionEnd: { status: number; endTime: number } | null;
}

/** Runs the reader on `paths`: its exit status, its parsed output (status 0) and its stderr. */
export function readEvents(...paths: string[]): {
  status: number | null;
  read?: ReadBack;
  stderr: string;
} {
  const r = spawnSync('python3', [READER, ...paths], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return {
    status: r.status,
    stderr: r.stderr,
    ...(r.status === 0 ? { read: JSON.parse(r.stdout) as ReadBack } : {}),
  };
}
