// The TensorBoard messages an events file holds, encoded field by field. Field numbers from
// tensorflow/tensorboard@00342393c324 tensorboard/compat/proto/event.proto (Event, SessionLog,
// SourceMetadata) and @00bd827c4d95 tensorboard/compat/proto/summary.proto (Summary, its Value
// and Image, SummaryMetadata); the null tensor's from @2013f3601bec
// tensorboard/compat/proto/tensor.proto and tensor_shape.proto.
import {
  bytesField,
  doubleField,
  floatField,
  join,
  messageField,
  stringField,
  uintField,
} from './protoWire.js';
import type { Encoded } from './protoWire.js';

/** What every events file starts with (event.proto: "Current version is brain.Event:2"). */
export const FILE_VERSION = 'brain.Event:2';

/** One `Summary.Value` of a summary event. */
export type SummaryValue = Encoded;

/** The `Event` that opens a file: its version and (SourceMetadata) who wrote it. */
export function fileVersionEvent(wallTime: number, writer: string): Encoded {
  return join([
    doubleField(1, wallTime),
    stringField(3, FILE_VERSION),
    messageField(10, [stringField(1, writer)]),
  ]);
}

/**
 * A `SessionLog` START event at `step`. TensorBoard counts a run's first START as its start and
 * every later one as a restart that drops the run's points at steps ≥ `step` (see
 * tensorboardTracker.ts).
 */
export function sessionStartEvent(wallTime: number, step: number): Encoded {
  return join([doubleField(1, wallTime), uintField(2, step), messageField(7, [uintField(1, 1)])]);
}

/** An `Event` carrying one `Summary` of the given values at `step`. */
export function summaryEvent(
  wallTime: number,
  step: number,
  values: readonly SummaryValue[],
): Encoded {
  return join([
    doubleField(1, wallTime),
    uintField(2, step),
    messageField(
      5,
      values.map((v) => bytesField(1, v)),
    ),
  ]);
}

/** A scalar (`simple_value`, a float32): TensorBoard's SCALARS tab. */
export function scalarValue(tag: string, value: number): SummaryValue {
  return join([stringField(1, tag), floatField(2, value)]);
}

/** Summary.Image's colorspace for 8-bit RGB (summary.proto: "3 - RGB"). */
export const COLORSPACE_RGB = 3;

/** An encoded image (PNG here): TensorBoard's IMAGES tab. */
export function imageValue(
  tag: string,
  image: { width: number; height: number; colorspace: number; encoded: Uint8Array },
): SummaryValue {
  return join([
    stringField(1, tag),
    messageField(4, [
      uintField(1, image.height),
      uintField(2, image.width),
      uintField(3, image.colorspace),
      bytesField(4, image.encoded),
    ]),
  ]);
}

/**
 * A value for a plugin: its SummaryMetadata.PluginData (name, content) and, as the value, an empty
 * float tensor (dtype DT_FLOAT = 1, shape [0]), what the hparams plugin's own writer puts there.
 */
export function pluginValue(tag: string, pluginName: string, content: Encoded): SummaryValue {
  const emptyFloatTensor = [uintField(1, 1), messageField(2, [messageField(2, [])])];
  return join([
    stringField(1, tag),
    messageField(9, [messageField(1, [stringField(1, pluginName), bytesField(2, content)])]),
    messageField(8, emptyFloatTensor),
  ]);
}
