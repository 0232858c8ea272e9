import { describe, expect, it } from "vitest";
import type { PlanLeg } from "../documents/plan-document.js";
import { hostLegs } from "./host-legs.js";

const leg = (containers: PlanLeg["containers"]): PlanLeg => ({
  runner: ["ubuntu-24.04"],
  platform_slug: "x",
  container_platform: "linux/amd64",
  containers,
  tests: [],
  prefix: [],
});
const native = [{ id: "native", shell: "bash" }];

describe("the test legs pipeline run runs on this host", () => {
  it("runs native legs of its own platform and lists the rest with why", () => {
    const legs = {
      "linux/amd64": leg(native),
      "linux/arm64": leg(native),
      "linux/amd64+libc.musl": leg([{ id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" }]),
      "linux/amd64+libc.glibc": leg(native),
      "darwin/arm64": leg(native),
    };
    expect(hostLegs({ legs }, { os: "linux", architecture: "amd64", libc: "glibc" })).toEqual([
      { leg: "linux/amd64", container: "native", runs: true },
      {
        leg: "linux/arm64",
        container: "native",
        runs: false,
        why: "a linux/arm64 leg; this host is linux/amd64",
      },
      {
        leg: "linux/amd64+libc.musl",
        container: "alpine_3.20",
        runs: false,
        why: "a container leg (alpine:3.20): CI runs it",
      },
      { leg: "linux/amd64+libc.glibc", container: "native", runs: true },
      {
        leg: "darwin/arm64",
        container: "native",
        runs: false,
        why: "a darwin/arm64 leg; this host is linux/amd64",
      },
    ]);
  });

  it("leaves a leg of another libc to CI", () => {
    expect(
      hostLegs(
        { legs: { "linux/amd64+libc.musl": leg(native) } },
        { os: "linux", architecture: "amd64", libc: "glibc" },
      ),
    ).toEqual([
      {
        leg: "linux/amd64+libc.musl",
        container: "native",
        runs: false,
        why: "a musl leg; this host's libc is glibc",
      },
    ]);
  });
});
