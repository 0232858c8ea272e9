// The library behind `pkg-catalog`: load a catalog.config.json, read its index sources, build the
// site, render the CI files, serve it while editing.
export { type BuildOptions, buildCatalog } from "./build/build-catalog.js";
export { type BuildReport, summaryLine } from "./build/report.js";
export { renderCiFiles } from "./ci/render.js";
export { type CiRun, runCi } from "./ci/run-ci.js";
export * from "./config/index.js";
export { type DevServer, type DevServerOptions, startDevServer } from "./dev/dev-server.js";
export { type ReadSourcesOptions, readSources } from "./sources/read-sources.js";
export type { LoadedIndex, LoadedPackage } from "./sources/types.js";
