// `--tensorboard`: a run's metrics as TensorBoard event files in
// `<results>/tensorboard/<id>/`, one TensorBoard run per bench run (`tensorboard --logdir
// <results>/tensorboard`). Scalars as the run trains, its hyperparameters for the HPARAMS tab,
// and at its end the final metric, the session's end and the learned couplings as images.
//
// Resume: each session opens a new file (TensorBoard reads a run's files in name order, and the
// names carry the start time), whose first event after the version is a SessionLog START at the
// checkpoint's step + 1. TensorBoard takes a run's first START as its start and each later one as
// a restart: it drops the points it has read at steps ≥ that step (`_CheckForRestartAndMaybePurge`
// in tensorboard/backend/event_processing/plugin_event_accumulator.py of tensorboard 2.21.0, for
// files of version brain.Event:2 and `--purge_orphaned_data`, its default), so the points an
// interrupted session wrote past its checkpoint give way to those the resumed one writes again,
// as the metrics file's rows do. A fresh start (step 0) deletes the run's older event files.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunConfig } from '../../types.js';
import type { RunRecord } from '../../recordTypes.js';
import type { MetricsRow, RunTracker, TrackerContext } from '../types.js';
import {
  COLORSPACE_RGB,
  imageValue,
  scalarValue,
  sessionStartEvent,
  summaryEvent,
} from './eventProto.js';
import type { SummaryValue } from './eventProto.js';
import { openEventsFile } from './eventsFile.js';
import { heatmapImage, upperTriangle } from './heatmap.js';
import { SESSION_STATUS, sessionEndInfo, sessionStartInfo } from './hparamsProto.js';
import type { HParamValue } from './hparamsProto.js';
import { encodePng } from './png.js';
import type { RgbImage } from './png.js';

/** The folder of a run's event files: `<results>/tensorboard/<id>`. */
export function tensorboardRunDir(resultsDir: string, id: string): string {
  return join(resultsDir, 'tensorboard', id);
}

/**
 * A run's hyperparameters: its config's numbers, strings and booleans, nested settings as
 * `parent.key`, sampler options as JSON, and the defaults of the fields a config leaves out
 * (couplings `full`, positions `learned`, one layer).
 */
export function hparamsOf(config: RunConfig): Record<string, HParamValue> {
  const out: Record<string, HParamValue> = { couplings: 'full', positions: 'learned', layers: 1 };
  const put = (name: string, value: unknown): void => {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean')
      out[name] = value;
  };
  for (const [name, value] of Object.entries(config)) {
    if (name === 'couplingForm') put('couplings', value);
    else if (name === 'samplerOptions') out.samplerOptions = JSON.stringify(value);
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) put(`${name}.${k}`, v);
    else put(name, value);
  }
  return out;
}

/** The scalars of one metrics row, under TensorBoard tags. */
export function scalarsOf(r: MetricsRow): SummaryValue[] {
  const pairs: [string, number | undefined][] =
    r.event === 'train'
      ? [
          ['train/loss', r.trainLoss],
          ['lr', r.lr],
          ['grad_norm', r.gradNorm],
          ['steps_per_second', r.stepsPerSecond],
          ...Object.entries(r.convergence ?? {}).map(
            ([k, v]) =>
              [`sampler/${k}`, typeof v === 'number' ? v : undefined] as [
                string,
                number | undefined,
              ],
          ),
        ]
      : [
          [`val/${r.metricName ?? 'metric'}`, r.metric],
          ['val/loss', r.evalLoss],
          ['train_eval/loss', r.trainEvalLoss],
        ];
  return pairs.flatMap(([tag, v]) =>
    v === undefined || !Number.isFinite(v) ? [] : [scalarValue(tag, v)],
  );
}

const pngValue = (tag: string, image: RgbImage): SummaryValue =>
  imageValue(tag, { ...image, colorspace: COLORSPACE_RGB, encoded: encodePng(image) });

/**
 * The record's learned couplings as images: `couplings/J` (layer 0, head 0's J, its strict upper
 * triangle) and `couplings/profile` (the mean J by distance d = 1 … T − 1, a row per layer and
 * head). None for a variant without couplings.
 */
export function couplingImages(record: RunRecord): SummaryValue[] {
  const T = record.config.length;
  const out: SummaryValue[] = [];
  if (record.couplings && record.couplings.length === T * T && T > 1)
    out.push(pngValue('couplings/J', heatmapImage(upperTriangle(record.couplings, T), T, T)));
  const profile = record.couplingProfile;
  if (profile && profile.length > 0 && profile[0]!.length > 0)
    out.push(
      pngValue(
        'couplings/profile',
        heatmapImage(profile.flat(), profile.length, profile[0]!.length),
      ),
    );
  return out;
}

/** Removes a run's event files (a fresh start). */
function removeEventFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.includes('tfevents')) rmSync(join(dir, name), { force: true });
}

/** The `--tensorboard` tracker, or undefined when the flag is off. */
export function tensorboardTracker(
  context: TrackerContext,
  now: () => number = () => Date.now() / 1000,
): RunTracker | undefined {
  if (context.settings.tensorboard !== true) return undefined;
  const dir = tensorboardRunDir(context.settings.resultsDir, context.id);
  if (context.startStep === 0) removeEventFiles(dir);
  const file = openEventsFile(dir, now);
  const start = now();
  file.write(sessionStartEvent(start, context.startStep + 1));
  file.write(
    summaryEvent(start, context.startStep, [sessionStartInfo(hparamsOf(context.config), start)]),
  );
  let lastStep = context.startStep;
  return {
    row(r) {
      lastStep = Math.max(lastStep, r.step);
      const values = scalarsOf(r);
      if (values.length > 0) file.write(summaryEvent(r.time, r.step, values));
    },
    finish(record) {
      const end = now();
      const final = [scalarValue(`final/${record.metricName}`, record.finalMetric)];
      if (Number.isFinite(record.finalLoss))
        final.push(scalarValue('final/loss', record.finalLoss));
      file.write(summaryEvent(end, lastStep, [...final, ...couplingImages(record)]));
      file.write(summaryEvent(end, lastStep, [sessionEndInfo(SESSION_STATUS.success, end)]));
    },
    close() {
      file.close();
    },
  };
}
