// The speed scripts' flags (scripts/benchEngine.ts, benchTraining.ts, benchPeers.ts…): each script
// declares its own with parseScriptArgs (node:util parseArgs, strict); the helpers here
// (benchModelArg, backendArg) and the scripts read them with scriptArg.
export { parseScriptArgs, scriptArg } from '../../../tools/scriptArgs.js';
