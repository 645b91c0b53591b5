// One TensorBoard events file: `events.out.tfevents.<unix seconds>.<host>` (TensorBoard finds a
// run's files by the "tfevents" in their names and reads them in name order), opened with its
// file-version event, then one TFRecord per event, each written through at once so that a killed
// process leaves every finished record readable.
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileVersionEvent } from './eventProto.js';
import { tfRecord } from './tfrecord.js';

/** Who wrote the files (the first event's SourceMetadata). */
const WRITER = '@boltzmann/bench';

/** An open events file. */
export interface EventsFile {
  readonly path: string;
  /** Appends one encoded `Event`. */
  write(event: Uint8Array): void;
  close(): void;
}

/**
 * The name of a new events file in `dir` at unix time `seconds`: TensorBoard's
 * `events.out.tfevents.<10-digit seconds>.<host>`, with `.1`, `.2`, … added when a file of that
 * name exists (two sessions in one second), which still sorts after it.
 */
export function eventsFileName(dir: string, seconds: number, host = hostname()): string {
  const base = `events.out.tfevents.${String(Math.floor(seconds)).padStart(10, '0')}.${host}`;
  let name = base;
  for (let n = 1; existsSync(join(dir, name)); n++) name = `${base}.${n}`;
  return name;
}

/** Creates a new events file in `dir` (made if missing) and writes its file-version event. */
export function openEventsFile(
  dir: string,
  now: () => number = () => Date.now() / 1000,
): EventsFile {
  mkdirSync(dir, { recursive: true });
  const wallTime = now();
  const path = join(dir, eventsFileName(dir, wallTime));
  let fd: number | undefined = openSync(path, 'wx');
  const file: EventsFile = {
    path,
    write(event) {
      if (fd !== undefined) writeSync(fd, tfRecord(event));
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
  file.write(fileVersionEvent(wallTime, WRITER));
  return file;
}
