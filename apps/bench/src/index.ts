export { BenchError, formatError, hasErrorCode } from './benchError.js';
export type { BenchErrorCode } from './benchError.js';
export { writeFileAtomic, writeJsonAtomic } from './atomicWrite.js';
export { parseBenchArgs, userPath } from './options.js';
export type { BenchCommand } from './options.js';
export { ALL_VARIANTS, presetGrid } from './presets.js';
export type { GridSpec } from './gridTypes.js';
export type { PresetName } from './presets.js';
export { canonicalJson, dqaColumn, expandGrid, runId, runLabel } from './grid.js';
export { meanStd, summarize } from './summary.js';
export type { Stat, Summary, SummaryRow } from './summary.js';
export { formatStat, summaryHtml, summaryMarkdown, summaryTables } from './summaryTable.js';
export { couplingDistanceSpec } from './couplingDistancePlot.js';
export { couplingHeatmapSpec } from './couplingHeatmapPlot.js';
export { curvesSpec, fidelitySpec, groupLabel, metricVsLengthSpec, renderSvg } from './plots.js';
export type { FidelityPoint } from './plots.js';
export { settingsLine, writeReport } from './report.js';
export type { ReportFiles } from './report.js';
export { createBenchRegistry, loadPluginModule, missingBuiltIns } from './registry.js';
export {
  checkpointPath,
  modelPath,
  readCheckpoint,
  readRecord,
  recordPath,
  removeCheckpoint,
} from './runFiles.js';
export type { Checkpoint } from './runFiles.js';
export { finalMetricOf, trainRun } from './trainRun.js';
export type { TrainHooks } from './trainRun.js';
export { runGrid } from './runGrid.js';
export type { GridOutcome, GridPlan, GridRunOptions, RunFailure } from './gridTypes.js';
export { hardwareDryRun, hardwareRuns, samplerTrafficOfRun } from './hardwareDryRun.js';
export type { SamplerTraffic } from './hardwareDryRun.js';
export { estimateGridSeconds, estimateRunSeconds } from './eta.js';
export { barProgress, formatDuration, plainProgress } from './progress.js';
export type { ProgressDisplay } from './progress.js';
export { parseSampleArgs } from './sampleOptions.js';
export type { SampleCommand } from './sampleOptions.js';
export {
  encodePrompt,
  generate,
  loadSampleModel,
  pickToken,
  readModelFile,
} from './sample.js';
export { runSample } from './sampleRun.js';
export type { DecodeOptions } from './sample.js';
export { EXIT } from './cliIo.js';
export type { MainIo, RunCli } from './cliIo.js';
export { main } from './main.js';
export type {
  BracketMode,
  CurvePoint,
  DatasetName,
  Experiment,
  RunConfig,
  RunProgress,
  RunRecord,
  RunSettings,
  Variant,
} from './types.js';
