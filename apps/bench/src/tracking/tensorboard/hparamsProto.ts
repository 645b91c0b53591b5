// The hparams plugin's summaries: a session's hyperparameters when it starts and its status when
// it ends, so TensorBoard's HPARAMS tab lists the run with its settings beside its metrics (which
// the plugin finds among the run's scalars). Field numbers from tensorflow/tensorboard@286df3195197
// tensorboard/plugins/hparams/plugin_data.proto (HParamsPluginData, SessionStartInfo,
// SessionEndInfo) and @bf8fd69e1d15 tensorboard/plugins/hparams/api.proto (Status); the map's
// values are google.protobuf.Value (protocolbuffers/protobuf@b750da89560b
// src/google/protobuf/struct.proto). Tags, plugin name and data version from
// tensorflow/tensorboard@96ae27f57e4c tensorboard/plugins/hparams/metadata.py.
import { pluginValue } from './eventProto.js';
import type { SummaryValue } from './eventProto.js';
import { doubleField, join, messageField, stringField, uintField } from './protoWire.js';
import type { Encoded } from './protoWire.js';

const PLUGIN_NAME = 'hparams';
const PLUGIN_DATA_VERSION = 0;
export const SESSION_START_INFO_TAG = '_hparams_/session_start_info';
export const SESSION_END_INFO_TAG = '_hparams_/session_end_info';

/** A hyperparameter's value: the plugin supports numbers, strings and booleans. */
export type HParamValue = number | string | boolean;

/** api.proto's Status of a session. */
export const SESSION_STATUS = { success: 1, failure: 2, running: 3 } as const;

/** A google.protobuf.Value: number_value = 2 (double), string_value = 3, bool_value = 4. */
function protobufValue(value: HParamValue): Encoded {
  if (typeof value === 'number') return doubleField(2, value);
  if (typeof value === 'boolean') return uintField(4, value);
  return stringField(3, value);
}

/** HParamsPluginData (version 0) with one of its `data` oneof set, as a summary value. */
function hparamsValue(tag: string, dataField: number, data: readonly Encoded[]): SummaryValue {
  const content = join([uintField(1, PLUGIN_DATA_VERSION), messageField(dataField, data)]);
  return pluginValue(tag, PLUGIN_NAME, content);
}

/**
 * The session's start: its hyperparameters (a map, each entry a message of key = 1, value = 2)
 * and start time. The map's entries go in key order, so the same settings encode the same.
 */
export function sessionStartInfo(
  hparams: Readonly<Record<string, HParamValue>>,
  startTimeSecs: number,
): SummaryValue {
  const entries = Object.keys(hparams)
    .sort()
    .map((name) =>
      messageField(1, [stringField(1, name), messageField(2, [protobufValue(hparams[name]!)])]),
    );
  return hparamsValue(SESSION_START_INFO_TAG, 3, [...entries, doubleField(5, startTimeSecs)]);
}

/** The session's end: its status and end time. */
export function sessionEndInfo(status: number, endTimeSecs: number): SummaryValue {
  return hparamsValue(SESSION_END_INFO_TAG, 4, [uintField(1, status), doubleField(2, endTimeSecs)]);
}
