export { BenchError, formatError, hasErrorCode } from './benchError.js';
export type { BenchErrorCode } from './benchError.js';
export { writeFileAtomic, writeJsonAtomic } from './results/atomicWrite.js';
export { parseBenchArgs, parseSampleArgs } from './cli/parseArgs.js';
export { userPath } from './paths.js';
export type { BenchCommand, GridSpec } from './benchCommand.js';
export { ALL_VARIANTS, presetGrid } from './experiments/presets.js';
export type { PresetName } from './experiments/presets.js';
export { canonicalJson, dqaColumn, expandGrid, runId, runLabel } from './grid/expandGrid.js';
export { meanStd, summarize } from './report/summary.js';
export type { Stat, Summary, SummaryRow } from './report/summary.js';
export { formatStat, summaryHtml, summaryMarkdown, summaryTables } from './report/summaryTable.js';
export { couplingDistanceSpec } from './report/plots/couplingDistancePlot.js';
export { couplingHeatmapSpec } from './report/plots/couplingHeatmapPlot.js';
export { curvesSpec, fidelitySpec, groupLabel, renderSvg } from './report/plots/plots.js';
export { metricVsLengthSpec } from './report/plots/lengthPlot.js';
export type { FidelityPoint } from './report/plots/plots.js';
export { settingsLine, writeReport } from './report/writeReport.js';
export type { ReportFiles } from './report/writeReport.js';
export { createBenchRegistry, loadPluginModule } from './samplers/registry.js';
export type { BenchRegistry } from './samplers/registry.js';
export {
  checkpointPath,
  modelPath,
  readCheckpoint,
  readRecord,
  recordPath,
  removeCheckpoint,
} from './results/runFiles.js';
export type { Checkpoint } from './results/runFiles.js';
export { metricsPath } from './results/runFiles.js';
export { readMetrics } from './tracking/metricsFile.js';
export type { MetricsRow, RunTracker, TrackerContext } from './tracking/types.js';
export { finalMetricOf, trainRun } from './training/trainRun.js';
export type { TrainHooks } from './training/trainRun.js';
export { runGrid } from './grid/executor.js';
export { poolExecutor } from './pool/poolExecutor.js';
export type {
  GridExecutor,
  GridOutcome,
  GridPlan,
  GridRunOptions,
  RunFailure,
} from './grid/types.js';
export { hardwareDryRun, hardwareRuns, samplerTrafficOfRun } from './hardware/hardwareDryRun.js';
export type { SamplerTraffic } from './hardware/hardwareDryRun.js';
export { estimateGridSeconds, estimateRunSeconds } from './grid/eta.js';
export type { EtaEngine, EtaKernels } from './grid/eta.js';
export { barProgress, formatDuration, plainProgress } from './grid/progress.js';
export type { ProgressDisplay } from './grid/progress.js';
export type { SampleCommand } from './commands/sample.js';
export {
  encodePrompt,
  generate,
  loadSampleModel,
  pickToken,
  readModelFile,
} from './inference/generate.js';
export { runSample } from './inference/sampleRun.js';
export type { DecodeOptions } from './inference/generate.js';
export { EXIT } from './io.js';
export type { MainIo, RunCli } from './io.js';
export { main } from './cli/main.js';
export type {
  BracketMode,
  DatasetName,
  EngineChoice,
  Experiment,
  RunConfig,
  RunProgress,
  RunSettings,
  Variant,
} from './types.js';
export type { CurvePoint, RunEnvironment, RunRecord } from './recordTypes.js';
