#!/usr/bin/env node
// The test command of the README: makes sure what the tests need is on the machine, then runs
// the whole suite and ends with one line `N passed, N failed`.
// Extra arguments go to vitest (e.g. `npm test -- packages/oci`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Debian package -> the binary the tests run from it
const debianPackages = {
  "docker-registry": "/usr/bin/docker-registry",
  skopeo: "/usr/bin/skopeo",
  zstd: "/usr/bin/zstd",
  "xz-utils": "/usr/bin/xz",
  openssl: "/usr/bin/openssl",
  tar: "/usr/bin/tar",
  gzip: "/usr/bin/gzip",
  bzip2: "/usr/bin/bzip2",
  zip: "/usr/bin/zip",
  binutils: "/usr/bin/readelf",
  git: "/usr/bin/git",
  "libxml2-utils": "/usr/bin/xmllint",
  chromium: "/usr/bin/chromium",
};

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", cwd: root, ...options });
  return result.status ?? 1;
}

function ensureDebianPackages() {
  const missing = Object.entries(debianPackages)
    .filter(([, binary]) => !existsSync(binary))
    .map(([name]) => name);
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) {
    console.error(`The tests need these Debian packages: ${missing.join(" ")}`);
    console.error(`Install them with: sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}`);
    process.exit(1);
  }
  console.error(`installing ${missing.join(" ")} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (
    run("apt-get", ["update"], { env }) !== 0 ||
    run("apt-get", ["install", "-y", ...missing], { env }) !== 0
  ) {
    console.error(`apt-get could not install: ${missing.join(" ")}`);
    process.exit(1);
  }
}

function ensureNodeModules() {
  if (existsSync(join(root, "node_modules", ".bin", "vitest"))) return;
  console.error("node_modules is missing: running npm ci");
  if (run("npm", ["ci"]) !== 0) process.exit(1);
}

ensureDebianPackages();
ensureNodeModules();

const reportDir = mkdtempSync(join(tmpdir(), "pkg-vitest-"));
const reportFile = join(reportDir, "report.json");
const status = run(join(root, "node_modules", ".bin", "vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${reportFile}`,
  ...process.argv.slice(2),
]);
let passed = 0;
let failed = 0;
if (existsSync(reportFile)) {
  const report = JSON.parse(readFileSync(reportFile, "utf8"));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  if (status !== 0 && failed === 0) failed = 1;
} else {
  failed = 1;
}
rmSync(reportDir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
