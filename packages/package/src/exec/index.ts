// What runs a package: environment composition (pure), command resolution, launchers, and the
// child process with its exit status and signals passed through. `pkg exec` and `package test`
// share these; installing is `../store`.
export {
  applyEnvPlan,
  composeEnv,
  type EnvOs,
  type EnvPackage,
  type EnvPlan,
  type EnvView,
  expandPlaceholders,
  hostEnvOs,
  packagePathDirs,
  pathSeparator,
} from "./compose-env.js";
export { type LauncherSpec, type LauncherTarget, launcherFileName, renderLauncher } from "./launchers.js";
export { type ExecPlan, packageEnvironment, planExec } from "./plan-exec.js";
export {
  findInPackageDirs,
  type PackageLookup,
  type ResolvedCommand,
  refuseShadowedHostCommands,
  resolveCommand,
  whyNotRunnable,
} from "./resolve-command.js";
export { type ChildOutcome, exitStatusOf, runForwardingSignals } from "./run.js";
export { type LauncherPlace, writeLaunchers } from "./write-launchers.js";
