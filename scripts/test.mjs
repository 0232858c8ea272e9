#!/usr/bin/env node
// The test command of the README: makes sure what the tests need is on the machine, then runs
// the whole suite and ends with one line `N passed, N failed`.
// Extra arguments go to vitest (e.g. `npm test -- packages/oci`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
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
  shellcheck: "/usr/bin/shellcheck",
};

// Tools built from their Go modules (`go install`), kept in a cache outside the clone so a new
// clone on the same machine does not build them again: name -> module path@version. Tests find
// them on PATH.
const goTools = {
  actionlint: "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12",
  // the independent signature verifier: what pkg signs must verify with it, and what it signs with pkg
  cosign: "github.com/sigstore/cosign/v2/cmd/cosign@v2.6.5",
  // a registry with the OCI 1.1 referrers API (CNCF distribution 2.8 has none): go-containerregistry's
  // registry package behind a small main of ours, built from its directory (its go.mod pins the module)
  "referrers-registry": "./scripts/go-tools/referrers-registry",
};
const goBin = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pkg-test-tools", "go-bin");

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

function ensureGoTools() {
  const missing = Object.entries(goTools).filter(([name]) => !existsSync(join(goBin, name)));
  if (missing.length === 0) return;
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) {
    console.error(
      `These tools are built with Go, which is missing: install Go 1.25 or newer (cosign and the referrers registry need it), then run again: ${missing.map(([, m]) => m).join(" ")}`,
    );
    process.exit(1);
  }
  for (const [name, module] of missing) {
    console.error(`building ${name} (${module}) with go install into ${goBin}`);
    const local = module.startsWith("./");
    const args = local ? ["install", "."] : ["install", module];
    const cwd = local ? join(root, module) : root;
    if (run("go", args, { cwd, env: { ...process.env, GOBIN: goBin } }) !== 0) {
      console.error(`go install ${module} failed`);
      process.exit(1);
    }
  }
}

ensureDebianPackages();
ensureGoTools();
ensureNodeModules();
// the tools built above, for the tests
process.env.PATH = `${goBin}:${process.env.PATH ?? ""}`;

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
