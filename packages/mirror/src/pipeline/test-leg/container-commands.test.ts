import { spawnSync } from "node:child_process";
import { arch as hostArch } from "node:os";
import { isPkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import type { PlanContainer, PlanLeg } from "../documents/plan-document.js";
import {
  renderArchCheck,
  renderContainerLeg,
  renderInvocation,
  renderPull,
  renderSetupDockerfile,
  setupImageTag,
} from "./container-commands.js";
import { containerArch, PKG_CONTAINER_CLI_TAG, staticPkgTriple, staticPkgUrl } from "./pkg-release.js";

const muslLeg: PlanLeg = {
  runner: ["ubuntu-24.04-arm"],
  platform_slug: "linux-arm64-musl",
  container_platform: "linux/arm64",
  containers: [],
  tests: [],
  prefix: [],
};
const alpine: PlanContainer = {
  id: "alpine_3.20",
  image: "alpine:3.20",
  shell: "sh",
  libc: "musl",
  setup: ["apk add --no-cache git", "echo 'it''s' > /x"],
};
const workspace = "/home/runner/work/tool";
const staticPkg = "/tmp/pkg-v0.1.0-aarch64-unknown-linux-musl/pkg";
const url = "https://github.com/pkg-sh/pkg/releases/download/v0.1.0/pkg-aarch64-unknown-linux-musl.tar.gz";

describe("the static pkg release", () => {
  it("is one tag, one URL pattern and one triple per arch and libc", () => {
    expect(PKG_CONTAINER_CLI_TAG).toBe("v0.1.0");
    expect(staticPkgTriple("x86_64", "glibc")).toBe("x86_64-unknown-linux-gnu");
    expect(staticPkgTriple("aarch64", "musl")).toBe("aarch64-unknown-linux-musl");
    expect(staticPkgUrl("aarch64", "musl")).toBe(url);
  });

  it("maps linux/amd64 and linux/arm64 to their arch, and refuses any other platform (82)", () => {
    expect(containerArch("linux/amd64")).toBe("x86_64");
    expect(containerArch("linux/arm64")).toBe("aarch64");
    for (const platform of ["linux/arm/v7", "linux/386", "linux/riscv64"]) {
      let thrown: unknown;
      try {
        containerArch(platform);
      } catch (error) {
        thrown = error;
      }
      expect(isPkgError(thrown) && thrown.exitCode).toBe(82);
      expect((thrown as Error).message).toBe(
        `no static pkg release for container platform ${platform}: container legs run on linux/amd64 or linux/arm64`,
      );
    }
  });
});

describe("renderContainerLeg", () => {
  const rendered = renderContainerLeg({
    legKey: "linux/arm64+libc.musl",
    leg: muslLeg,
    container: alpine,
    workspace,
    staticPkg,
  });

  it("renders the prelude exactly: arch check, static pkg, guarded pull with retries, setup build", () => {
    expect(rendered.arch).toBe("aarch64");
    expect(rendered.prelude).toEqual([
      `[ "$(uname -m)" = 'aarch64' ] || { echo 'error: container legs for linux/arm64 need an aarch64 runner (this one is '"$(uname -m)"'); set an arch-matched runner: on this platform' >&2; exit 1; }`,
      `[ -x '${staticPkg}' ] || { mkdir -p '/tmp/pkg-v0.1.0-aarch64-unknown-linux-musl' && curl -fsSL --retry 5 '${url}' | tar -xz -C '/tmp/pkg-v0.1.0-aarch64-unknown-linux-musl' --strip-components=1 && [ -x '${staticPkg}' ]; } || { echo 'error: could not download the static pkg (aarch64-unknown-linux-musl) from ${url}' >&2; exit 1; }`,
      `docker image inspect 'alpine:3.20' >/dev/null 2>&1 || {`,
      "  pkg_attempt=1; pkg_delay=2",
      `  until docker pull --platform 'linux/arm64' 'alpine:3.20'; do`,
      `    [ "$pkg_attempt" -lt 5 ] || { echo 'error: could not pull alpine:3.20 for linux/arm64 after 5 attempts (a registry outage or rate limit, not a test failure)' >&2; exit 1; }`,
      `    echo "pull attempt $pkg_attempt failed; retrying in $pkg_delay s" >&2`,
      `    sleep "$pkg_delay"; pkg_attempt=$((pkg_attempt + 1)); pkg_delay=$((pkg_delay * 2))`,
      "  done",
      "}",
      `docker image inspect 'pkg-mirror-setup:alpine_3.20-linux-arm64-musl' >/dev/null 2>&1 || printf '%s' 'FROM alpine:3.20
SHELL ["sh", "-c"]
RUN apk add --no-cache git
RUN echo '\\''it'\\'''\\''s'\\'' > /x
' | docker build --platform 'linux/arm64' -t 'pkg-mirror-setup:alpine_3.20-linux-arm64-musl' - || { echo 'error: container setup failed for alpine_3.20 on linux/arm64+libc.musl: one of its 2 setup command(s) exited non-zero (docker build'\\''s output above names the failing RUN)' >&2; exit 1; }`,
    ]);
  });

  it("renders the setup Dockerfile: FROM the image, its shell, one RUN per entry, verbatim", () => {
    expect(rendered.dockerfile).toBe(
      `FROM alpine:3.20\nSHELL ["sh", "-c"]\nRUN apk add --no-cache git\nRUN echo 'it''s' > /x\n`,
    );
    expect(renderSetupDockerfile("ubuntu:24.04", "bash", ["apt-get update"])).toBe(
      `FROM ubuntu:24.04\nSHELL ["bash", "-c"]\nRUN apt-get update\n`,
    );
    expect(setupImageTag("ubuntu_24.04", "linux-amd64")).toBe("pkg-mirror-setup:ubuntu_24.04-linux-amd64");
  });

  it("runs tests in the setup image, the workspace, static pkg and CA bundle mounted, the platform without +libc", () => {
    expect(rendered.runImage).toBe("pkg-mirror-setup:alpine_3.20-linux-arm64-musl");
    expect(rendered.run).toEqual([
      "docker",
      "run",
      "--rm",
      "-i",
      "--platform",
      "linux/arm64",
      "-v",
      `${workspace}:${workspace}`,
      "-w",
      workspace,
      "-v",
      `${staticPkg}:/usr/local/bin/pkg:ro`,
      "-v",
      "/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro",
      "-e",
      "PKG_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt",
      "-e",
      "PKG_HOME=/tmp/pkg-home",
      "pkg-mirror-setup:alpine_3.20-linux-arm64-musl",
      "pkg",
    ]);
  });

  it("runs the image itself when there is no setup, with a glibc image's gnu pkg", () => {
    const ubuntu: PlanContainer = { id: "ubuntu_24.04", image: "ubuntu:24.04", shell: "bash", libc: "glibc" };
    const leg = { ...muslLeg, platform_slug: "linux-amd64", container_platform: "linux/amd64" };
    const plain = renderContainerLeg({
      legKey: "linux/amd64",
      leg,
      container: ubuntu,
      workspace,
      staticPkg: "/opt/pkg-gnu/pkg",
      caBundle: "/etc/pki/tls/certs/ca-bundle.crt",
    });
    expect(plain.dockerfile).toBeUndefined();
    expect(plain.runImage).toBe("ubuntu:24.04");
    expect(plain.prelude).toHaveLength(1 + 1 + 8);
    expect(plain.prelude[1]).toContain("/v0.1.0/pkg-x86_64-unknown-linux-gnu.tar.gz");
    expect(plain.run.slice(10, 17)).toEqual([
      "-v",
      "/opt/pkg-gnu/pkg:/usr/local/bin/pkg:ro",
      "-v",
      "/etc/pki/tls/certs/ca-bundle.crt:/etc/pki/tls/certs/ca-bundle.crt:ro",
      "-e",
      "PKG_EXTRA_CA_CERTS=/etc/pki/tls/certs/ca-bundle.crt",
      "-e",
    ]);
    expect(plain.run.at(-2)).toBe("ubuntu:24.04");
  });

  it("is a script sh parses", () => {
    const checked = spawnSync("sh", ["-n", "-c", ["set -eu", ...rendered.prelude].join("\n")], {
      encoding: "utf8",
    });
    expect(checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });

  it("refuses what it cannot render", () => {
    const refused = (change: Partial<Parameters<typeof renderContainerLeg>[0]>) => {
      try {
        renderContainerLeg({
          legKey: "linux/arm64+libc.musl",
          leg: muslLeg,
          container: alpine,
          workspace,
          staticPkg,
          ...change,
        });
      } catch (error) {
        return [isPkgError(error) ? error.exitCode : "not a PkgError", (error as Error).message];
      }
      return undefined;
    };
    expect(refused({ workspace: "/work/a:b" })).toEqual([
      64,
      "workspace \"/work/a:b\": a container mount wants an absolute path without ':', ',' or a newline",
    ]);
    expect(refused({ staticPkg: "pkg" })?.[0]).toBe(64);
    expect(refused({ container: { ...alpine, libc: undefined } as PlanContainer })).toEqual([
      65,
      "container alpine_3.20 of linux/arm64+libc.musl: plan.json gives no libc for image alpine:3.20, so no static pkg matches it",
    ]);
    expect(refused({ leg: { ...muslLeg, container_platform: "linux/arm/v7" } })?.[0]).toBe(82);
  });
});

describe("the arch check on this host (no emulation)", () => {
  const own = hostArch() === "arm64" ? "linux/arm64" : "linux/amd64";
  const other = own === "linux/arm64" ? "linux/amd64" : "linux/arm64";
  const run = (platform: string) =>
    spawnSync("sh", ["-c", renderArchCheck(platform, containerArch(platform)).join("\n")], {
      encoding: "utf8",
    });

  it("passes on a runner of the container's arch", () => {
    expect(run(own).status).toBe(0);
  });

  it("fails with the message telling to set an arch-matched runner on another", () => {
    const result = run(other);
    expect(result.status).toBe(1);
    const uname = spawnSync("uname", ["-m"], { encoding: "utf8" }).stdout.trim();
    expect(result.stderr.trim()).toBe(
      `error: container legs for ${other} need an ${containerArch(other)} runner (this one is ${uname}); set an arch-matched runner: on this platform`,
    );
  });
});

describe("renderPull and renderInvocation", () => {
  it("quote what they interpolate", () => {
    expect(renderPull("ghcr.io/acme/base:1", "linux/amd64")[2]).toBe(
      "  until docker pull --platform 'linux/amd64' 'ghcr.io/acme/base:1'; do",
    );
    expect(
      renderInvocation([
        "docker",
        "run",
        "img",
        "pkg",
        "package",
        "test",
        "--",
        "sh",
        "-c",
        'tool --version | grep "$X"',
      ]),
    ).toBe(`'docker' 'run' 'img' 'pkg' 'package' 'test' '--' 'sh' '-c' 'tool --version | grep "$X"'`);
    expect(
      renderInvocation(["pkg", "package", "test", "--script", "-"], "expect.ok(pkg.run('tool'))\n"),
    ).toBe(`printf '%s' 'expect.ok(pkg.run('\\''tool'\\''))\n' | 'pkg' 'package' 'test' '--script' '-'`);
  });
});
