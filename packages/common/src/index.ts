export {
  removeTempFilesBeside,
  renameIntoPlace,
  tempPathBeside,
  writeAtomically,
  writeFileAtomically,
  writeFileAtomicallySync,
} from "./atomic-write.js";
export { childEnvironment, SIGNING_SECRET_VARIABLES } from "./child-env.js";
export { integerOption, type OutputFormat, parseFormat, printJson, runCli } from "./cli.js";
export { contentTypeFor } from "./content-types.js";
export { dataError, describeError, isPkgError, oneLine, PkgError, usageError } from "./errors.js";
export { ExitCode, exitCodeName } from "./exit-codes.js";
export { forEachFileChunk } from "./file-chunks.js";
export { type Interruption, listenForInterrupt, type StopSignal } from "./interrupt.js";
export { isJsonObject } from "./json.js";
export {
  buildFullTree,
  buildLazyTree,
  type CommandLoader,
  type LazyGroup,
  type LazyNode,
} from "./lazy-commands.js";
export { type Logger, type ProgressMode, silentLogger, stderrLogger, wantsLiveDisplay } from "./log.js";
export { runMain } from "./main.js";
export { readPackageVersion } from "./package-version.js";
export { isInside } from "./paths.js";
export { processAlive } from "./process-alive.js";
export { silentTasks, type TaskBoard, type TaskProgress } from "./progress/board.js";
export { formatBytes } from "./progress/format.js";
export { redact, registerSecret } from "./secrets.js";
export { shCommandLine, shQuote } from "./shell-quote.js";
export {
  createWorkerPool,
  serveRequests,
  startEntryWorker,
  type WorkerJob,
  type WorkerPool,
} from "./worker-pool.js";
