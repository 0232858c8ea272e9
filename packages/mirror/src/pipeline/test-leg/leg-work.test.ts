import { isPkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import type { PlanContainer, PlanDocument, PlanLeg, PlanVersion } from "../documents/plan-document.js";
import { findLeg, legWork, selectContainers } from "./leg-work.js";
import { packageTestInvocation } from "./package-test-args.js";

const alpine: PlanContainer = { id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" };
const ubuntu: PlanContainer = { id: "ubuntu_24.04", image: "ubuntu:24.04", shell: "bash", libc: "glibc" };
const tests = [{ name: "version", command: "tool --version" }];
const amd64: PlanLeg = {
  runner: ["ubuntu-latest"],
  platform_slug: "linux-amd64",
  container_platform: "linux/amd64",
  containers: [alpine, ubuntu],
  tests,
  prefix: [],
};
const darwin: PlanLeg = {
  runner: ["macos-13"],
  platform_slug: "darwin-amd64",
  container_platform: "darwin/amd64",
  containers: [{ id: "native", shell: "bash" }],
  tests,
  prefix: ["arch", "-x86_64"],
};
const version = (tag: string, platforms: string[], kind: PlanVersion["kind"] = "new"): PlanVersion => ({
  version: tag,
  source_version: tag.replace(/_.*/, ""),
  kind,
  platforms,
  assets: [],
});
const plan: PlanDocument = {
  schema_version: 1,
  target: "ghcr.io/acme/tool",
  versions_resolved: { min_inclusive: true, max_inclusive: false },
  has_new: true,
  has_drift: true,
  versions: [
    version("1.0.0_1", ["linux/amd64", "linux/amd64+libc.musl", "darwin/amd64"]),
    version("1.1.0_1", ["linux/amd64+libc.glibc"], "backfill"),
    version("1.2.0_1", [], "metadata-drift"),
    version("1.3.0_1", ["darwin/amd64"]),
  ],
  legs: { "linux/amd64": amd64, "darwin/amd64": darwin },
};

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return [isPkgError(error) ? error.exitCode : "?", (error as Error).message];
  }
  return undefined;
};

describe("legWork", () => {
  it("gives each container the entries it gates, per version, drift never", () => {
    const work = legWork(plan, amd64, amd64.containers);
    expect(
      work.map((w) => [
        w.container.id,
        w.tag,
        w.junitFile,
        w.entries.map((e) => [e.platform, e.suite, e.bundle]),
      ]),
    ).toEqual([
      [
        "alpine_3.20",
        "1.0.0_1",
        "junit-1.0.0_1-linux-amd64-alpine_3.20.xml",
        [
          ["linux/amd64", "1.0.0_1.linux-amd64.alpine_3.20", "bundle-1.0.0_1-linux-amd64.tar.zst"],
          [
            "linux/amd64+libc.musl",
            "1.0.0_1.linux-amd64-musl.alpine_3.20",
            "bundle-1.0.0_1-linux-amd64-musl.tar.zst",
          ],
        ],
      ],
      [
        "ubuntu_24.04",
        "1.0.0_1",
        "junit-1.0.0_1-linux-amd64-ubuntu_24.04.xml",
        [["linux/amd64", "1.0.0_1.linux-amd64.ubuntu_24.04", "bundle-1.0.0_1-linux-amd64.tar.zst"]],
      ],
      [
        "ubuntu_24.04",
        "1.1.0_1",
        "junit-1.1.0_1-linux-amd64-ubuntu_24.04.xml",
        [
          [
            "linux/amd64+libc.glibc",
            "1.1.0_1.linux-amd64-glibc.ubuntu_24.04",
            "bundle-1.1.0_1-linux-amd64-glibc.tar.zst",
          ],
        ],
      ],
    ]);
    expect(work[0]?.pkgVersion).toBe("1.0.0");
    expect(work[0]?.entries[0]?.metadata).toBe("bundle-1.0.0_1-linux-amd64-metadata.json");
  });

  it("takes only the versions asked for, and refuses one the plan does not have (65)", () => {
    expect(legWork(plan, darwin, darwin.containers, ["1.3.0_1"]).map((w) => w.tag)).toEqual(["1.3.0_1"]);
    expect(legWork(plan, darwin, darwin.containers, ["1.2.0_1"])).toEqual([]);
    expect(codeOf(() => legWork(plan, darwin, darwin.containers, ["9.9.9"]))).toEqual([
      65,
      "--version 9.9.9: not in plan.json (versions: 1.0.0_1, 1.1.0_1, 1.2.0_1, 1.3.0_1)",
    ]);
  });

  it("finds legs and containers by key and id, or says which there are", () => {
    expect(findLeg(plan, "linux/amd64").leg).toBe(amd64);
    expect(codeOf(() => findLeg(plan, "linux/arm64"))).toEqual([
      65,
      "--leg linux/arm64: plan.json has no such leg (legs: linux/amd64, darwin/amd64)",
    ]);
    expect(codeOf(() => findLeg({ ...plan, legs: {} }, "linux/arm64"))?.[1]).toMatch(/it has no legs/);
    expect(codeOf(() => findLeg(plan, "linux"))?.[0]).toBe(64);
    expect(selectContainers("linux/amd64", amd64, "ubuntu_24.04")).toEqual([ubuntu]);
    expect(selectContainers("linux/amd64", amd64, undefined)).toEqual([alpine, ubuntu]);
    expect(codeOf(() => selectContainers("linux/amd64", amd64, "native"))).toEqual([
      65,
      "--container native: leg linux/amd64 has no such container (containers: alpine_3.20, ubuntu_24.04)",
    ]);
  });
});

describe("packageTestInvocation", () => {
  const base = {
    bundles: ["/ws/bundles/b.tar.zst"],
    metadata: "/ws/bundles/b-metadata.json",
    platform: "darwin/amd64",
    pkgVersion: "1.3.0",
    junit: "/ws/junit/j.xml",
    suite: "1.3.0_1.darwin-amd64.native",
    properties: [
      { name: "pkg.platform", value: "darwin/amd64" },
      { name: "ci.job.url", value: "https://ci/1" },
    ],
    shell: "bash",
    prefix: ["arch", "-x86_64"],
    repoRoot: "/ws",
  };
  const head = [
    "package",
    "test",
    "/ws/bundles/b.tar.zst",
    "-m",
    "/ws/bundles/b-metadata.json",
    "--platform",
    "darwin/amd64",
    "--pkg-version",
    "1.3.0",
    "--junit",
    "/ws/junit/j.xml",
    "--junit-name",
  ];
  const suite = ["--junit-suite", "1.3.0_1.darwin-amd64.native"];
  const props = [
    "--junit-property",
    "pkg.platform=darwin/amd64",
    "--junit-property",
    "ci.job.url=https://ci/1",
  ];

  it("runs a command as <prefix> <shell> -c <command>", () => {
    expect(
      packageTestInvocation({ ...base, test: { name: "version", command: "tool --version | head -1" } }),
    ).toEqual({
      args: [
        ...head,
        "version",
        ...suite,
        ...props,
        "--",
        "arch",
        "-x86_64",
        "bash",
        "-c",
        "tool --version | head -1",
      ],
    });
  });

  it("passes an environment package's layers in their order, each a bundle before the metadata", () => {
    const layers = ["/ws/bundles/b-layer1.tar.zst", "/ws/bundles/b-layer2.tar.zst"];
    const { args } = packageTestInvocation({
      ...base,
      bundles: layers,
      test: { name: "version", command: "app --version" },
    });
    expect(args.slice(0, 5)).toEqual(["package", "test", ...layers, "-m"]);
  });

  it("resolves a script from the repository root and pipes an inline one", () => {
    expect(packageTestInvocation({ ...base, test: { name: "smoke", script: "tests/smoke.star" } })).toEqual({
      args: [...head, "smoke", ...suite, ...props, "--script", "/ws/tests/smoke.star"],
    });
    expect(
      packageTestInvocation({
        ...base,
        image: "alpine:3.20",
        test: { name: "inline", script_inline: "expect.true(True)\n" },
      }),
    ).toEqual({
      args: [
        ...head.slice(0, 9),
        "--image",
        "alpine:3.20",
        ...head.slice(9),
        "inline",
        ...suite,
        ...props,
        "--script",
        "-",
      ],
      stdin: "expect.true(True)\n",
    });
  });
});
