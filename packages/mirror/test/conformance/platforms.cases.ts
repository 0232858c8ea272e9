import { expect } from "vitest";
import { type ConformanceCase, pythonSpec, type SpecObject, spec } from "../support/spec-case.js";

type Json = Exclude<SpecObject[string], undefined>;

/** A spec whose `platforms` holds one leg at `key`. */
function leg(key: string, value: Json): string {
  return spec({ platforms: { [key]: value } });
}

/** A spec with one linux/amd64 container leg (or another key). */
function container(entry: Json, key = "linux/amd64"): string {
  return leg(key, { runner: "ubuntu-latest", containers: [entry] });
}

function legOf(s: Record<string, unknown>, key = "linux/amd64"): Record<string, unknown> {
  return (s.platforms as Record<string, Record<string, unknown>>)[key] ?? {};
}

function containerOf(s: Record<string, unknown>, key = "linux/amd64", i = 0): Record<string, unknown> {
  return (legOf(s, key).containers as Array<Record<string, unknown>>)[i] ?? {};
}

const P = "platforms.linux/amd64";
const C = `${P}.containers[0]`;

export const cases: ConformanceCase[] = [
  // runner
  {
    rule: "platforms: a single runner label is a set of one",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest" }),
    exit: 0,
    check: (s) => expect(legOf(s).runner).toEqual(["ubuntu-latest"]),
  },
  {
    rule: "platforms: a runner label list is kept in order",
    yaml: leg("linux/amd64", { runner: ["self-hosted", "linux", "x64"] }),
    exit: 0,
    check: (s) => expect(legOf(s).runner).toEqual(["self-hosted", "linux", "x64"]),
  },
  {
    rule: "platforms: runner is required (no default)",
    yaml: leg("linux/amd64", { shell: "bash" }),
    exit: 65,
    path: P,
    message: /missing required key "runner"/,
  },
  {
    rule: "platforms: an empty runner list is refused",
    yaml: leg("linux/amd64", { runner: [] }),
    exit: 65,
    path: `${P}.runner`,
    message: /at least one label/,
  },
  {
    rule: "platforms: a whitespace-only runner label is refused",
    yaml: leg("linux/amd64", { runner: "   " }),
    exit: 65,
    path: `${P}.runner`,
    message: /empty or whitespace/,
  },
  {
    rule: "platforms: an empty label inside a runner list is refused",
    yaml: leg("linux/amd64", { runner: ["self-hosted", ""] }),
    exit: 65,
    path: `${P}.runner[1]`,
  },
  {
    rule: "platforms: a runner that is neither a string nor a list is refused",
    yaml: leg("linux/amd64", { runner: { label: "x" } }),
    exit: 65,
    path: `${P}.runner`,
    message: /expected a string/,
  },
  // keys and closed sets
  {
    rule: "platforms: keys follow the platform-key grammar",
    yaml: leg("linux-amd64", { runner: "ubuntu-latest" }),
    exit: 65,
    path: "platforms.linux-amd64",
    message: /invalid platform key/,
  },
  {
    rule: "platforms: a +libc key is only valid on linux",
    yaml: leg("darwin/arm64+libc.musl", { runner: "macos-latest" }),
    exit: 65,
    path: "platforms.darwin/arm64+libc.musl",
    message: /only declared on linux/,
  },
  {
    rule: "platforms: an unknown key under a platform is refused naming the closest",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", shel: "bash" }),
    exit: 65,
    path: `${P}.shel`,
    message: /unknown key "shel" \(did you mean "shell"\?\)/,
  },
  {
    rule: "platforms: a leg must be a mapping",
    yaml: leg("linux/amd64", null),
    exit: 65,
    path: P,
    message: /expected a mapping/,
  },
  {
    rule: "platforms: must be a mapping of platform keys",
    yaml: spec({ platforms: ["linux/amd64"] }),
    exit: 65,
    path: "platforms",
  },
  // shell and prefix defaults
  {
    rule: "platforms: the native shell defaults to bash on linux",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest" }),
    exit: 0,
    check: (s) => expect(legOf(s).shell).toBe("bash"),
  },
  {
    rule: "platforms: the native shell defaults to bash on darwin",
    yaml: leg("darwin/arm64", { runner: "macos-latest" }),
    exit: 0,
    check: (s) => expect(legOf(s, "darwin/arm64").shell).toBe("bash"),
  },
  {
    rule: "platforms: the native shell defaults to pwsh on windows",
    yaml: leg("windows/amd64", { runner: "windows-latest" }),
    exit: 0,
    check: (s) => expect(legOf(s, "windows/amd64").shell).toBe("pwsh"),
  },
  {
    rule: "platforms: a given shell is kept",
    yaml: leg("windows/amd64", { runner: "windows-latest", shell: "cmd" }),
    exit: 0,
    check: (s) => expect(legOf(s, "windows/amd64").shell).toBe("cmd"),
  },
  {
    rule: "platforms: an empty shell is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", shell: "" }),
    exit: 65,
    path: `${P}.shell`,
  },
  {
    rule: "platforms: prefix defaults to [arch, -x86_64] on darwin/amd64 with a macos-* runner",
    yaml: leg("darwin/amd64", { runner: "macos-14" }),
    exit: 0,
    check: (s) => expect(legOf(s, "darwin/amd64").prefix).toEqual(["arch", "-x86_64"]),
  },
  {
    rule: "platforms: prefix defaults to empty on darwin/amd64 without a macos-* runner",
    yaml: leg("darwin/amd64", { runner: ["self-hosted", "intel-mac"] }),
    exit: 0,
    check: (s) => expect(legOf(s, "darwin/amd64").prefix).toEqual([]),
  },
  {
    rule: "platforms: prefix defaults to empty on darwin/arm64 and elsewhere",
    yaml: spec({
      platforms: { "darwin/arm64": { runner: "macos-latest" }, "linux/amd64": { runner: "ubuntu-latest" } },
    }),
    exit: 0,
    check: (s) => {
      expect(legOf(s, "darwin/arm64").prefix).toEqual([]);
      expect(legOf(s).prefix).toEqual([]);
    },
  },
  {
    rule: "platforms: an explicit prefix replaces the default (an empty one too)",
    yaml: leg("darwin/amd64", { runner: "macos-latest", prefix: [] }),
    exit: 0,
    check: (s) => expect(legOf(s, "darwin/amd64").prefix).toEqual([]),
  },
  {
    rule: "platforms: prefix entries must be non-empty strings",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", prefix: ["env", ""] }),
    exit: 65,
    path: `${P}.prefix[1]`,
  },
  // version window
  {
    rule: "platforms: min_version and max_version are kept as written; exclude defaults to empty",
    yaml: leg("linux/arm64", { runner: "ubuntu-24.04-arm", min_version: "1.2.0", max_version: "2.0.0" }),
    exit: 0,
    check: (s) => {
      const l = legOf(s, "linux/arm64");
      expect([l.min_version, l.max_version, l.exclude]).toEqual(["1.2.0", "2.0.0", []]);
    },
  },
  {
    rule: "platforms: an unparsable min_version is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", min_version: "latest" }),
    exit: 65,
    path: `${P}.min_version`,
  },
  {
    rule: "platforms: a max_version with a tag prefix is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", max_version: "v2.0.0" }),
    exit: 65,
    path: `${P}.max_version`,
    message: /starts with "v"/,
  },
  {
    rule: "platforms: an unquoted numeric bound is refused with a hint to quote it",
    yaml: `${spec()}platforms:\n  linux/amd64:\n    runner: ubuntu-latest\n    min_version: 1.10\n`,
    exit: 65,
    path: `${P}.min_version`,
    message: /quotes/,
  },
  {
    rule: "platforms: a bound carrying a build suffix is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", min_version: "1.2.3_20240101" }),
    exit: 65,
    path: `${P}.min_version`,
    message: /build suffix/,
  },
  {
    rule: "platforms: a Python app's bounds and excludes are PEP 440 versions",
    yaml: pythonSpec({
      platforms: {
        "linux/amd64": {
          runner: "ubuntu-latest",
          min_version: "2.0rc1",
          exclude: [{ version: "2.1.post1" }],
        },
      },
    }),
    exit: 0,
    check: (s) =>
      expect(legOf(s)).toMatchObject({ min_version: "2.0rc1", exclude: [{ version: "2.1.post1" }] }),
  },
  {
    rule: "platforms: a PEP 440-only bound is refused for a release source",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", min_version: "2.0rc1" }),
    exit: 65,
    path: `${P}.min_version`,
    message: /PEP 440 spelling/,
  },
  {
    rule: "platforms: an exclude version outside PEP 440 is refused for a Python app",
    yaml: pythonSpec({
      platforms: { "linux/amd64": { runner: "ubuntu-latest", exclude: [{ version: "2.0.0-alpha.beta" }] } },
    }),
    exit: 65,
    path: `${P}.exclude[0].version`,
    message: /not a PEP 440 version/,
  },
  // exclude
  {
    rule: "platforms.exclude: a single version; severity defaults to broken",
    yaml: leg("linux/amd64", {
      runner: "ubuntu-latest",
      exclude: [{ version: "1.4.2", reason: "segfaults" }],
    }),
    exit: 0,
    check: (s) =>
      expect(legOf(s).exclude).toEqual([{ version: "1.4.2", reason: "segfaults", severity: "broken" }]),
  },
  {
    rule: "platforms.exclude: a range may set min_version alone, max_version alone, or both; severity skip",
    yaml: leg("linux/amd64", {
      runner: "ubuntu-latest",
      exclude: [
        { min_version: "3.0.0" },
        { max_version: "1.0.0", severity: "skip" },
        { min_version: "2.0.0", max_version: "2.1.0", reason: "no arm build" },
      ],
    }),
    exit: 0,
    check: (s) =>
      expect(legOf(s).exclude).toEqual([
        { min_version: "3.0.0", severity: "broken" },
        { max_version: "1.0.0", severity: "skip" },
        { min_version: "2.0.0", max_version: "2.1.0", reason: "no arm build", severity: "broken" },
      ]),
  },
  {
    rule: "platforms.exclude: version together with a range bound is refused",
    yaml: leg("linux/amd64", {
      runner: "ubuntu-latest",
      exclude: [{ version: "1.0.0", min_version: "1.0.0" }],
    }),
    exit: 65,
    path: `${P}.exclude[0]`,
    message: /not both/,
  },
  {
    rule: "platforms.exclude: an entry with neither version nor range is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: [{ reason: "broken upstream" }] }),
    exit: 65,
    path: `${P}.exclude[0]`,
    message: /needs version/,
  },
  {
    rule: "platforms.exclude: an unparsable version is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: [{ version: "1.x" }] }),
    exit: 65,
    path: `${P}.exclude[0].version`,
  },
  {
    rule: "platforms.exclude: an unparsable range bound is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: [{ max_version: "next" }] }),
    exit: 65,
    path: `${P}.exclude[0].max_version`,
  },
  {
    rule: "platforms.exclude: severity is broken or skip",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: [{ version: "1.0.0", severity: "warn" }] }),
    exit: 65,
    path: `${P}.exclude[0].severity`,
    message: /expected one of "broken", "skip"/,
  },
  {
    rule: "platforms.exclude: an unknown key in an entry is refused",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: [{ version: "1.0.0", reasons: "x" }] }),
    exit: 65,
    path: `${P}.exclude[0].reasons`,
    message: /did you mean "reason"/,
  },
  {
    rule: "platforms.exclude: must be a list",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", exclude: { version: "1.0.0" } }),
    exit: 65,
    path: `${P}.exclude`,
    message: /expected a list/,
  },
  // containers
  {
    rule: "containers: alpine gets shell sh and the slugified image as id",
    yaml: container({ image: "alpine:3.20" }),
    exit: 0,
    check: (s) => expect(containerOf(s)).toEqual({ image: "alpine:3.20", shell: "sh", id: "alpine_3.20" }),
  },
  {
    rule: "containers: ubuntu, debian, fedora, rocky and opensuse images get bash",
    yaml: spec({
      platforms: {
        "linux/amd64": {
          runner: "ubuntu-latest",
          containers: [
            { image: "ubuntu:24.04" },
            { image: "debian:bookworm-slim" },
            { image: "fedora:40" },
            { image: "rockylinux:9" },
            { image: "opensuse/leap:15.6" },
          ],
        },
      },
    }),
    exit: 0,
    check: (s) => {
      const list = legOf(s).containers as Array<{ shell: string; id: string }>;
      expect(list.map((c) => c.shell)).toEqual(["bash", "bash", "bash", "bash", "bash"]);
      expect(list.map((c) => c.id)).toEqual([
        "ubuntu_24.04",
        "debian_bookworm-slim",
        "fedora_40",
        "rockylinux_9",
        "opensuse_leap_15.6",
      ]);
    },
  },
  {
    rule: "containers: a Docker Hub image spelt with its registry and library/ still has its default shell",
    yaml: container({ image: "docker.io/library/alpine:3.20" }),
    exit: 0,
    check: (s) => expect(containerOf(s)).toMatchObject({ shell: "sh", id: "docker.io_library_alpine_3.20" }),
  },
  {
    rule: "containers: an image with no known default shell loads when shell is given",
    yaml: container({ image: "ghcr.io/acme/build-env:1.2", shell: "bash" }),
    exit: 0,
    check: (s) =>
      expect(containerOf(s)).toEqual({
        image: "ghcr.io/acme/build-env:1.2",
        shell: "bash",
        id: "ghcr.io_acme_build-env_1.2",
      }),
  },
  {
    rule: "containers: an image with no known default shell and no shell is refused",
    yaml: container({ image: "busybox:1.36" }),
    exit: 65,
    path: C,
    message: /no known default shell/,
  },
  {
    rule: "containers: a given shell replaces the image default; a given id is kept",
    yaml: container({ image: "alpine:3.20", shell: "ash", id: "alpine-edge" }),
    exit: 0,
    check: (s) => expect(containerOf(s)).toEqual({ image: "alpine:3.20", shell: "ash", id: "alpine-edge" }),
  },
  {
    rule: "containers: an image pinned by digest is a valid reference",
    yaml: container({ image: `alpine@sha256:${"a".repeat(64)}` }),
    exit: 0,
    check: (s) => expect(containerOf(s).id).toBe(`alpine_sha256_${"a".repeat(64)}`),
  },
  {
    rule: "containers: image is required",
    yaml: container({ shell: "sh" }),
    exit: 65,
    path: C,
    message: /missing required key "image"/,
  },
  {
    rule: "containers: an image with uppercase letters is not an OCI image reference",
    yaml: container({ image: "Alpine:3.20" }),
    exit: 65,
    path: `${C}.image`,
    message: /not an OCI image reference/,
  },
  {
    rule: "containers: a URL is not an OCI image reference",
    yaml: container({ image: "https://ghcr.io/acme/build:1" }),
    exit: 65,
    path: `${C}.image`,
    message: /URL/,
  },
  {
    rule: "containers: a tag with a bad character is refused",
    yaml: container({ image: "alpine:3.20!" }),
    exit: 65,
    path: `${C}.image`,
  },
  {
    rule: "containers: a list that is present must hold at least one entry",
    yaml: leg("linux/amd64", { runner: "ubuntu-latest", containers: [] }),
    exit: 65,
    path: `${P}.containers`,
    message: /at least one/,
  },
  {
    rule: "containers: refused on darwin legs (container legs are Linux-only)",
    yaml: leg("darwin/arm64", { runner: "macos-latest", containers: [{ image: "alpine:3.20" }] }),
    exit: 65,
    path: "platforms.darwin/arm64.containers",
    message: /only on linux/,
  },
  {
    rule: "containers: refused on windows legs",
    yaml: leg("windows/amd64", { runner: "windows-latest", containers: [{ image: "ubuntu:24.04" }] }),
    exit: 65,
    path: "platforms.windows/amd64.containers",
    message: /only on linux/,
  },
  {
    rule: "containers: an unknown key under a container is refused",
    yaml: container({ image: "alpine:3.20", entrypoint: "/bin/sh" }),
    exit: 65,
    path: `${C}.entrypoint`,
    message: /unknown key "entrypoint"/,
  },
  {
    rule: "containers: two containers with one id are refused",
    yaml: leg("linux/amd64", {
      runner: "ubuntu-latest",
      containers: [{ image: "alpine:3.20" }, { image: "ubuntu:24.04", id: "alpine_3.20" }],
    }),
    exit: 65,
    path: `${P}.containers[1]`,
    message: /share the id/,
  },
  {
    rule: "containers: an id with a slash is refused (it names files)",
    yaml: container({ image: "alpine:3.20", id: "alpine/3.20" }),
    exit: 65,
    path: `${C}.id`,
  },
  // setup
  {
    rule: "containers.setup: one command per entry, kept in order",
    yaml: container({ image: "alpine:3.20", setup: ["apk add --no-cache git", "git --version"] }),
    exit: 0,
    check: (s) => expect(containerOf(s).setup).toEqual(["apk add --no-cache git", "git --version"]),
  },
  {
    rule: "containers.setup: reusable across legs through YAML anchors",
    yaml: `${spec()}platforms:\n  "linux/amd64+libc.musl":\n    runner: ubuntu-latest\n    containers:\n      - image: alpine:3.20\n        setup: &deps\n          - apk add --no-cache bash\n  "linux/arm64+libc.musl":\n    runner: ubuntu-24.04-arm\n    containers:\n      - image: alpine:3.20\n        setup: *deps\n`,
    exit: 0,
    check: (s) => expect(containerOf(s, "linux/arm64+libc.musl").setup).toEqual(["apk add --no-cache bash"]),
  },
  {
    rule: "containers.setup: an empty list is refused",
    yaml: container({ image: "alpine:3.20", setup: [] }),
    exit: 65,
    path: `${C}.setup`,
    message: /at least one/,
  },
  {
    rule: "containers.setup: a blank entry is refused",
    yaml: container({ image: "alpine:3.20", setup: ["apk add git", "   "] }),
    exit: 65,
    path: `${C}.setup[1]`,
    message: /blank/,
  },
  {
    rule: "containers.setup: a multi-line entry is refused",
    yaml: container({ image: "alpine:3.20", setup: ["apk update\napk add git"] }),
    exit: 65,
    path: `${C}.setup[0]`,
    message: /single line/,
  },
  {
    rule: "containers.setup: an entry ending with a backslash is refused",
    yaml: container({ image: "alpine:3.20", setup: ["apk add \\"] }),
    exit: 65,
    path: `${C}.setup[0]`,
    message: /backslash/,
  },
  {
    rule: "containers.setup: must be a list",
    yaml: container({ image: "alpine:3.20", setup: "apk add git" }),
    exit: 65,
    path: `${C}.setup`,
    message: /expected a list/,
  },
  // libc-keyed legs
  {
    rule: "containers: +libc.musl keys on alpine and +libc.glibc keys on ubuntu load",
    yaml: spec({
      platforms: {
        "linux/amd64+libc.musl": { runner: "ubuntu-latest", containers: [{ image: "alpine:3.20" }] },
        "linux/amd64+libc.glibc": { runner: "ubuntu-latest", containers: [{ image: "ubuntu:24.04" }] },
      },
    }),
    exit: 0,
    check: (s) => {
      expect(containerOf(s, "linux/amd64+libc.musl").shell).toBe("sh");
      expect(containerOf(s, "linux/amd64+libc.glibc").shell).toBe("bash");
    },
  },
  {
    rule: "containers: a glibc base outside the shell list (centos on quay.io) loads on +libc.glibc with a shell",
    yaml: container({ image: "quay.io/centos/centos:stream9", shell: "bash" }, "linux/amd64+libc.glibc"),
    exit: 0,
  },
  {
    rule: "containers: a glibc base outside the shell list still needs shell",
    yaml: container({ image: "centos:7" }, "linux/amd64+libc.glibc"),
    exit: 65,
    path: "platforms.linux/amd64+libc.glibc.containers[0]",
    message: /no known default shell/,
  },
  {
    rule: "containers: centos from Docker Hub is a known glibc base",
    yaml: container({ image: "centos:7", shell: "bash" }, "linux/amd64+libc.glibc"),
    exit: 0,
  },
  {
    rule: "containers: a +libc.musl key tested on a glibc image is refused",
    yaml: container({ image: "ubuntu:24.04" }, "linux/amd64+libc.musl"),
    exit: 65,
    path: "platforms.linux/amd64+libc.musl.containers[0].image",
    message: /glibc base; a \+libc\.musl key/,
  },
  {
    rule: "containers: a +libc.glibc key tested on alpine is refused",
    yaml: container({ image: "alpine:3.20" }, "linux/arm64+libc.glibc"),
    exit: 65,
    path: "platforms.linux/arm64+libc.glibc.containers[0].image",
    message: /musl base/,
  },
  {
    rule: "containers: an image of unknown libc on a +libc key is refused, asking for a known base",
    yaml: container({ image: "ghcr.io/acme/build-env:1", shell: "sh" }, "linux/amd64+libc.musl"),
    exit: 65,
    path: "platforms.linux/amd64+libc.musl.containers[0].image",
    message: /cannot tell which libc .*known musl base \(alpine/,
  },
  {
    rule: "containers: on a key without libc any image runs",
    yaml: container({ image: "ghcr.io/acme/build-env:1", shell: "sh" }),
    exit: 0,
  },
];
