import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { planLegs } from "../src/pipeline/plan/legs.js";
import { loadMirrorSpec } from "../src/spec/loader.js";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));

/** The legs of a fixture spec, read in place. */
async function legsOf(name: string) {
  const loaded = await loadMirrorSpec(`${fixtures}${name}`, { repoRoot: fixtures });
  return planLegs(loaded.spec);
}

const cmake = [
  { name: "version", command: "cmake --version" },
  { name: "smoke", command: "bash ./tests/smoke.sh" },
];

describe("plan.json legs", () => {
  it("full-platforms.yml: runner lists, slugs, native entries, per-platform tests replacing, the darwin/amd64 prefix", async () => {
    expect(await legsOf("full-platforms.yml")).toEqual({
      "linux/amd64": {
        runner: ["ubuntu-latest"],
        platform_slug: "linux-amd64",
        container_platform: "linux/amd64",
        containers: [{ id: "native", shell: "bash" }],
        tests: cmake,
        prefix: [],
      },
      "linux/arm64": {
        runner: ["ubuntu-24.04-arm"],
        platform_slug: "linux-arm64",
        container_platform: "linux/arm64",
        containers: [{ id: "native", shell: "bash" }],
        tests: cmake,
        prefix: [],
      },
      "darwin/arm64": {
        runner: ["macos-latest"],
        platform_slug: "darwin-arm64",
        container_platform: "darwin/arm64",
        containers: [{ id: "native", shell: "bash" }],
        tests: cmake,
        prefix: [],
      },
      "darwin/amd64": {
        runner: ["macos-latest"],
        platform_slug: "darwin-amd64",
        container_platform: "darwin/amd64",
        containers: [{ id: "native", shell: "bash" }],
        tests: cmake,
        prefix: ["arch", "-x86_64"],
      },
      "windows/amd64": {
        runner: ["windows-latest"],
        platform_slug: "windows-amd64",
        container_platform: "windows/amd64",
        containers: [{ id: "native", shell: "pwsh" }],
        tests: [
          { name: "version", command: "cmake.exe --version" },
          { name: "smoke", command: "pwsh -File ./tests/smoke.ps1" },
        ],
        prefix: [],
      },
      "windows/arm64": {
        runner: ["windows-latest"],
        platform_slug: "windows-arm64",
        container_platform: "windows/arm64",
        containers: [{ id: "native", shell: "pwsh" }],
        tests: [{ name: "version", command: "cmake.exe --version" }],
        prefix: [],
      },
    });
  });

  it("container-libc.yml: container ids, shells and libc from the images, the container platform without +libc", async () => {
    const legs = await legsOf("container-libc.yml");
    expect(legs).toEqual({
      "linux/amd64+libc.musl": {
        runner: ["ubuntu-latest"],
        platform_slug: "linux-amd64-musl",
        container_platform: "linux/amd64",
        containers: [{ id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" }],
        tests: [{ name: "version", command: "shfmt --version" }],
        prefix: [],
      },
      "linux/amd64+libc.glibc": {
        runner: ["ubuntu-latest"],
        platform_slug: "linux-amd64-glibc",
        container_platform: "linux/amd64",
        containers: [{ id: "ubuntu_24.04", image: "ubuntu:24.04", shell: "bash", libc: "glibc" }],
        tests: [{ name: "version", command: "shfmt --version" }],
        prefix: [],
      },
    });
  });

  it("keeps setup and a given id, leaves libc out for an image of unknown libc, and a spec without tests gives empty lists", () => {
    const legs = planLegs({
      platforms: {
        "linux/arm64": {
          runner: ["ubuntu-24.04-arm", "large"],
          shell: "bash",
          prefix: [],
          exclude: [],
          containers: [
            { image: "ghcr.io/acme/builder:1", shell: "sh", id: "builder", setup: ["apk add git"] },
          ],
        },
      },
    });
    expect(legs["linux/arm64"]).toEqual({
      runner: ["ubuntu-24.04-arm", "large"],
      platform_slug: "linux-arm64",
      container_platform: "linux/arm64",
      containers: [{ id: "builder", image: "ghcr.io/acme/builder:1", shell: "sh", setup: ["apk add git"] }],
      tests: [],
      prefix: [],
    });
    expect(planLegs({})).toEqual({});
  });
});
