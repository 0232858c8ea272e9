export { createTestCa, type IssuedCert, type TestCa } from "./test-ca.js";
export { type RequestHandler, startHttpServer, type TestServer } from "./http-server.js";
export type { RecordedRequest } from "./recorded-request.js";
export { type RegistryAuth, type RunningRegistry, startRegistry } from "./registry.js";
export type { RegistryUser } from "./registry-user.js";
export { type TempDir, tempDir } from "./temp-dir.js";
