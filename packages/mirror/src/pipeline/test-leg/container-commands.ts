import { dirname } from "node:path";
import { ExitCode, PkgError, shCommandLine, shQuote } from "@pkg/common";
import type { PlanContainer, PlanLeg } from "../documents/plan-document.js";
import { type ContainerArch, containerArch, staticPkgTriple, staticPkgUrl } from "./pkg-release.js";

/**
 * The commands a container leg runs, as data: shell lines for the leg's prelude and argv for each
 * test. `pipeline test` runs them when docker is on PATH; `pipeline generate ci` renders them into
 * the test job. Every interpolated value is shell-quoted (a `${{ ... }}` expression of the CI
 * system survives: it is substituted before the shell reads the line). No container engine is
 * needed to render them.
 */

/** Where the static pkg is mounted in the container, and the store it uses there. */
export const CONTAINER_PKG_PATH = "/usr/local/bin/pkg";
export const CONTAINER_PKG_HOME = "/tmp/pkg-home";
/** The runner's CA bundle (Debian and Ubuntu runners), mounted read-only at the same path. */
export const DEFAULT_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt";
/** Image pulls: attempts, and the first delay in seconds (doubling). */
export const PULL_ATTEMPTS = 5;
export const PULL_FIRST_DELAY_S = 2;

export interface ContainerLegInput {
  /** The leg's platform key (for messages). */
  legKey: string;
  leg: PlanLeg;
  /** A container of the leg with an image. */
  container: PlanContainer;
  /** The host directory mounted at the same path: bundles, JUnit files and scripts live under it. */
  workspace: string;
  /** Host path of the static pkg binary (downloaded there when absent). */
  staticPkg: string;
  /** Host path of the CA bundle to mount (default `DEFAULT_CA_BUNDLE`). */
  caBundle?: string;
}

export interface ContainerLegCommands {
  arch: ContainerArch;
  /** Shell lines run once per leg, before any test: arch check, static pkg, image pull, setup build. */
  prelude: string[];
  /** The setup image's Dockerfile, when the container has `setup`. */
  dockerfile?: string;
  /** The image tests run in: the setup image's tag when there is setup, else the image. */
  runImage: string;
  /** `docker run ... <runImage> pkg`: each test appends `package test ...`. */
  run: string[];
}

/** The tag of a leg's setup image, built once per leg: `pkg-mirror-setup:<id>-<slug>`. */
export const setupImageTag = (containerId: string, slug: string) => `pkg-mirror-setup:${containerId}-${slug}`;

/** Renders everything a container leg runs; a platform without a static release is an error (82). */
export function renderContainerLeg(input: ContainerLegInput): ContainerLegCommands {
  const { container, leg, legKey } = input;
  const image = container.image;
  if (image === undefined) throw new Error(`container ${container.id} of ${legKey} has no image`);
  const libc = container.libc;
  if (libc === undefined) {
    throw new PkgError(
      ExitCode.Data,
      `container ${container.id} of ${legKey}: plan.json gives no libc for image ${image}, so no static pkg matches it`,
    );
  }
  const caBundle = input.caBundle ?? DEFAULT_CA_BUNDLE;
  for (const [what, path] of [
    ["workspace", input.workspace],
    ["static pkg", input.staticPkg],
    ["CA bundle", caBundle],
  ] as const) {
    if (!path.startsWith("/") || /[:,\n]/.test(path)) {
      throw new PkgError(
        ExitCode.Usage,
        `${what} ${JSON.stringify(path)}: a container mount wants an absolute path without ':', ',' or a newline`,
      );
    }
  }
  const arch = containerArch(leg.container_platform);
  const prelude = [
    ...renderArchCheck(leg.container_platform, arch),
    ...renderStaticPkg(input.staticPkg, arch, libc),
    ...renderPull(image, leg.container_platform),
  ];
  let runImage = image;
  let dockerfile: string | undefined;
  if (container.setup !== undefined) {
    dockerfile = renderSetupDockerfile(image, container.shell, container.setup);
    runImage = setupImageTag(container.id, leg.platform_slug);
    prelude.push(
      ...renderSetupBuild(
        dockerfile,
        runImage,
        leg.container_platform,
        container.id,
        legKey,
        container.setup.length,
      ),
    );
  }
  const run = [
    "docker",
    "run",
    "--rm",
    "-i",
    "--platform",
    leg.container_platform,
    "-v",
    `${input.workspace}:${input.workspace}`,
    "-w",
    input.workspace,
    "-v",
    `${input.staticPkg}:${CONTAINER_PKG_PATH}:ro`,
    "-v",
    `${caBundle}:${caBundle}:ro`,
    "-e",
    `PKG_EXTRA_CA_CERTS=${caBundle}`,
    "-e",
    `PKG_HOME=${CONTAINER_PKG_HOME}`,
    runImage,
    "pkg",
  ];
  return { arch, prelude, ...(dockerfile === undefined ? {} : { dockerfile }), runImage, run };
}

/** No emulation: the runner's `uname -m` must be the container's arch. */
export function renderArchCheck(containerPlatform: string, arch: ContainerArch): string[] {
  const before = `error: container legs for ${containerPlatform} need an ${arch} runner (this one is `;
  const after = "); set an arch-matched runner: on this platform";
  return [
    `[ "$(uname -m)" = ${shQuote(arch)} ] || { echo ${shQuote(before)}"$(uname -m)"${shQuote(after)} >&2; exit 1; }`,
  ];
}

/** Downloads the static, libc-matched pkg of `PKG_CONTAINER_CLI_TAG` to `path` once. */
export function renderStaticPkg(path: string, arch: ContainerArch, libc: "glibc" | "musl"): string[] {
  const dir = dirname(path);
  const url = staticPkgUrl(arch, libc);
  const message = `error: could not download the static pkg (${staticPkgTriple(arch, libc)}) from ${url}`;
  return [
    `[ -x ${shQuote(path)} ] || { mkdir -p ${shQuote(dir)} && curl -fsSL --retry 5 ${shQuote(url)} | tar -xz -C ${shQuote(dir)} --strip-components=1 && [ -x ${shQuote(path)} ]; } || { echo ${shQuote(message)} >&2; exit 1; }`,
  ];
}

/**
 * Pulls the image explicitly (a rate-limited pull is not a failed test): skipped when present,
 * else `PULL_ATTEMPTS` attempts with a doubling delay, then a clear error.
 */
export function renderPull(image: string, containerPlatform: string): string[] {
  const message = `error: could not pull ${image} for ${containerPlatform} after ${PULL_ATTEMPTS} attempts (a registry outage or rate limit, not a test failure)`;
  return [
    `docker image inspect ${shQuote(image)} >/dev/null 2>&1 || {`,
    `  pkg_attempt=1; pkg_delay=${PULL_FIRST_DELAY_S}`,
    `  until docker pull --platform ${shQuote(containerPlatform)} ${shQuote(image)}; do`,
    `    [ "$pkg_attempt" -lt ${PULL_ATTEMPTS} ] || { echo ${shQuote(message)} >&2; exit 1; }`,
    `    echo "pull attempt $pkg_attempt failed; retrying in $pkg_delay s" >&2`,
    `    sleep "$pkg_delay"; pkg_attempt=$((pkg_attempt + 1)); pkg_delay=$((pkg_delay * 2))`,
    "  done",
    "}",
  ];
}

/** The setup image: `FROM <image>`, the container's shell, one `RUN` per setup entry (verbatim). */
export function renderSetupDockerfile(image: string, shell: string, setup: readonly string[]): string {
  return [
    `FROM ${image}`,
    `SHELL [${[shell, "-c"].map((word) => JSON.stringify(word)).join(", ")}]`,
    ...setup.map((command) => `RUN ${command}`),
    "",
  ].join("\n");
}

/** Builds the setup image once per leg (skipped when its tag is there); a failure names the setup step. */
export function renderSetupBuild(
  dockerfile: string,
  tag: string,
  containerPlatform: string,
  containerId: string,
  legKey: string,
  steps: number,
): string[] {
  const message = `error: container setup failed for ${containerId} on ${legKey}: one of its ${steps} setup command(s) exited non-zero (docker build's output above names the failing RUN)`;
  return [
    `docker image inspect ${shQuote(tag)} >/dev/null 2>&1 || printf '%s' ${shQuote(dockerfile)} | docker build --platform ${shQuote(containerPlatform)} -t ${shQuote(tag)} - || { echo ${shQuote(message)} >&2; exit 1; }`,
  ];
}

/** One test's command line as a shell would run it: its argv quoted, with its stdin piped in when given. */
export function renderInvocation(argv: readonly string[], stdin?: string): string {
  const line = shCommandLine(argv);
  return stdin === undefined ? line : `printf '%s' ${shQuote(stdin)} | ${line}`;
}
