export {
  type AxeViolation,
  axeViolations,
  launchChromium,
  type RunningChromium,
} from "./browser.js";
export type { FaultAction, FaultPlan } from "./fault-plan.js";
export { type FaultProxy, startFaultProxy } from "./fault-proxy.js";
export { GO_TOOLS_BIN, goTool } from "./go-tool.js";
export { type RequestHandler, startHttpServer, type TestServer } from "./http-server.js";
export { pipTarget } from "./pip-target.js";
export { type RandomFaultOptions, randomFaults } from "./random-faults.js";
export type { RecordedRequest } from "./recorded-request.js";
export { type RunningReferrersRegistry, startReferrersRegistry } from "./referrers-registry.js";
export { type RegistryAuth, type RunningRegistry, startRegistry } from "./registry.js";
export type { RegistryUser } from "./registry-user.js";
export { type CliResult, runCli } from "./run-cli.js";
export { type CommandResult, type CompletedProcess, runCommand, spawnCollect } from "./run-command.js";
export { type SentResponse, sendRequest } from "./send-request.js";
export { type SigstoreServices, startSigstoreServices } from "./sigstore-services.js";
export { serveDirectory } from "./static-server.js";
export { type TempDir, tempDir } from "./temp-dir.js";
export { createTestCa, type IssuedCert, type TestCa } from "./test-ca.js";
