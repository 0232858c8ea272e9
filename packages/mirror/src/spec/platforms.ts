import { libcOf, type PlatformKey } from "@pkg/package";
import { isSeq } from "yaml";
import type { SectionContext } from "./context.js";
import type { Field } from "./field.js";
import { type ContainerLeg, readContainer } from "./platform-container.js";
import { type PlatformExclude, readExclude } from "./platform-exclude.js";
import { readPlatformMap } from "./platform-key.js";
import { readTestList, type TestEntry } from "./tests.js";
import { readVersionLiteral } from "./version-literal.js";

/** One CI leg: `platforms.<key>`, defaults applied. */
export interface PlatformLeg {
  /** Runner label set; a single label is a set of one. */
  runner: string[];
  /** Container legs; absent = the tests run natively. */
  containers?: ContainerLeg[];
  /** Native-leg shell: default `pwsh` on windows, `bash` elsewhere. */
  shell: string;
  /** Prefix of every test command: default `[arch, -x86_64]` on darwin/amd64 with a `macos-*` runner, else empty. */
  prefix: string[];
  /** Replaces the top-level `tests` entirely when given. */
  tests?: TestEntry[];
  /** Inclusive lower bound of the versions this platform applies to. */
  min_version?: string;
  /** Exclusive upper bound. */
  max_version?: string;
  /** Holes within the window; empty when not given. */
  exclude: PlatformExclude[];
}

/** `platforms`, keyed by canonical platform key. */
export type Platforms = Record<string, PlatformLeg>;

const LEG_KEYS = [
  "runner",
  "containers",
  "prefix",
  "shell",
  "tests",
  "min_version",
  "max_version",
  "exclude",
];

export function readPlatforms(field: Field, _ctx: SectionContext): Platforms | undefined {
  return readPlatformMap(field, readLeg);
}

function readLeg(field: Field, platform: PlatformKey): PlatformLeg | undefined {
  const map = field.map();
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(LEG_KEYS);
  const runnerField = map.require("runner");
  const runner = runnerField ? readRunner(runnerField) : undefined;
  const containers = map.has("containers") ? readContainers(map.get("containers"), platform) : undefined;
  const shell = map.has("shell")
    ? map.get("shell").string({ nonEmpty: true })
    : platform.os === "windows"
      ? "pwsh"
      : "bash";
  const prefix = map.has("prefix")
    ? map.get("prefix").strings({ nonEmptyItems: true })
    : defaultPrefix(platform, runner);
  const tests = map.has("tests") ? readTestList(map.get("tests")) : undefined;
  const min = map.has("min_version") ? readVersionLiteral(map.get("min_version")) : undefined;
  const max = map.has("max_version") ? readVersionLiteral(map.get("max_version")) : undefined;
  const exclude = map.has("exclude") ? readExcludes(map.get("exclude")) : [];
  if (map.diagnostics.list.length > before || !runner || !shell || !prefix || !exclude) return undefined;
  return {
    runner,
    ...(containers ? { containers } : {}),
    shell,
    prefix,
    ...(tests ? { tests } : {}),
    ...(min === undefined ? {} : { min_version: min }),
    ...(max === undefined ? {} : { max_version: max }),
    exclude,
  };
}

function readRunner(field: Field): string[] | undefined {
  const labels = isSeq(field.value) ? field.list() : [field];
  if (!labels) return undefined;
  if (labels.length === 0) return field.fail("a runner label set must hold at least one label");
  const out: string[] = [];
  for (const label of labels) {
    const text = label.string();
    if (text === undefined) continue;
    if (text.trim() === "") label.fail("a runner label must not be empty or whitespace");
    else out.push(text);
  }
  return out.length === labels.length ? out : undefined;
}

function readContainers(field: Field, platform: PlatformKey): ContainerLeg[] | undefined {
  if (platform.os === "darwin" || platform.os === "windows") {
    return field.fail(
      `containers run only on linux legs, not on ${platform.os}; remove containers from ${platform.key}`,
    );
  }
  const items = field.list({ nonEmpty: true });
  if (!items) return undefined;
  const libc = libcOf(platform);
  const out: ContainerLeg[] = [];
  const ids = new Set<string>();
  for (const item of items) {
    const container = readContainer(item, libc);
    if (!container) continue;
    if (ids.has(container.id)) {
      item.fail(
        `two containers of ${platform.key} share the id ${JSON.stringify(container.id)}; give each an "id"`,
      );
      continue;
    }
    ids.add(container.id);
    out.push(container);
  }
  return out.length === items.length ? out : undefined;
}

function defaultPrefix(platform: PlatformKey, runner: string[] | undefined): string[] {
  const macRunner = runner?.some((label) => label.startsWith("macos-")) ?? false;
  return platform.key === "darwin/amd64" && macRunner ? ["arch", "-x86_64"] : [];
}

function readExcludes(field: Field): PlatformExclude[] | undefined {
  const items = field.list();
  if (!items) return undefined;
  const out = items.map(readExclude).filter((e): e is PlatformExclude => e !== undefined);
  return out.length === items.length ? out : undefined;
}
