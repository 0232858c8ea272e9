// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import type {
  Dependency,
  DependencyVisibility,
  EnvEntry,
  EnvVisibility,
  Metadata,
} from "../metadata/model.js";
import {
  applyEnvPlan,
  composeEnv,
  type EnvPackage,
  type EnvPlan,
  type EnvView,
  expandPlaceholders,
  packagePathDirs,
  pathSeparator,
} from "./compose-env.js";

/** A package at /p/<name> with `env` and dependencies given as [dependency, package] pairs. */
function pkg(
  name: string,
  env: EnvEntry[] = [],
  deps: Array<[Omit<Dependency, "identifier"> & { repo?: string }, EnvPackage]> = [],
  extra: Partial<EnvPackage> = {},
): EnvPackage {
  const dependencies: Dependency[] = deps.map(([dep, installed]) => {
    const dependency: Dependency = {
      identifier: `r.example/${dep.repo ?? installed.installPath.split("/")[2]}@sha256:${"0".repeat(64)}`,
    };
    if (dep.name !== undefined) dependency.name = dep.name;
    if (dep.visibility !== undefined) dependency.visibility = dep.visibility;
    return dependency;
  });
  const metadata: Metadata = { type: "bundle", version: 1, env };
  if (dependencies.length > 0) metadata.dependencies = dependencies;
  const byName = new Map(
    deps.map(([dep, installed]) => [dep.name ?? installed.installPath.split("/")[2] ?? "", installed]),
  );
  return { metadata, installPath: `/p/${name}/content`, dependencies: byName, ...extra };
}

const path = (key: string, value: string, visibility?: EnvVisibility): EnvEntry =>
  visibility === undefined ? { key, type: "path", value } : { key, type: "path", value, visibility };
const constant = (key: string, value: string, visibility?: EnvVisibility): EnvEntry =>
  visibility === undefined ? { key, type: "constant", value } : { key, type: "constant", value, visibility };

const pathsOf = (plan: EnvPlan, key = "PATH") => plan.paths.find((p) => p.key === key)?.values ?? [];
const constantsOf = (plan: EnvPlan) => Object.fromEntries(plan.constants.map((c) => [c.key, c.value]));

describe("composeEnv: an entry's visibility decides which view sees it", () => {
  it.each<[EnvVisibility | undefined, EnvView, boolean]>([
    [undefined, "self", true],
    [undefined, "consumer", true],
    ["public", "self", true],
    ["public", "consumer", true],
    ["private", "self", true],
    ["private", "consumer", false],
    ["interface", "self", false],
    ["interface", "consumer", true],
  ])("%s entry, %s view: seen %s", (visibility, view, seen) => {
    const plan = composeEnv(
      pkg("a", [path("PATH", "${installPath}/bin", visibility), constant("A", "1", visibility)]),
      view,
    );
    expect(pathsOf(plan)).toEqual(seen ? ["/p/a/content/bin"] : []);
    expect(constantsOf(plan)).toEqual(seen ? { A: "1" } : {});
  });
});

describe("composeEnv: a dependency's visibility decides which view gets its environment", () => {
  it.each<[DependencyVisibility | undefined, EnvView, boolean]>([
    [undefined, "self", true],
    [undefined, "consumer", false],
    ["private", "self", true],
    ["private", "consumer", false],
    ["public", "self", true],
    ["public", "consumer", true],
    ["interface", "self", false],
    ["interface", "consumer", true],
    ["sealed", "self", false],
    ["sealed", "consumer", false],
  ])("%s dependency, %s view: included %s", (visibility, view, included) => {
    const dep = pkg("d", [path("PATH", "${installPath}/bin")]);
    const plan = composeEnv(pkg("a", [], [[visibility === undefined ? {} : { visibility }, dep]]), view);
    expect(pathsOf(plan)).toEqual(included ? ["/p/d/content/bin"] : []);
  });

  it("gives a dependency's consumer view, whatever the parent's view: never its private entries", () => {
    const dep = pkg("d", [
      path("PATH", "${installPath}/bin"),
      path("PATH", "${installPath}/libexec", "private"),
      path("PATH", "${installPath}/iface", "interface"),
    ]);
    for (const view of ["self", "consumer"] as const) {
      const plan = composeEnv(pkg("a", [], [[{ visibility: "public" }, dep]]), view);
      expect(pathsOf(plan), view).toEqual(["/p/d/content/bin", "/p/d/content/iface"]);
    }
  });

  it("passes on a dependency's public and interface dependencies, not its private or sealed ones", () => {
    const leaf = (name: string) => pkg(name, [path("PATH", "${installPath}/bin")]);
    const middle = pkg(
      "m",
      [],
      [
        [{ visibility: "public" }, leaf("pub")],
        [{ visibility: "interface" }, leaf("ifc")],
        [{ visibility: "private" }, leaf("prv")],
        [{ visibility: "sealed" }, leaf("sld")],
      ],
    );
    const plan = composeEnv(pkg("a", [], [[{ visibility: "public" }, middle]]), "consumer");
    expect(pathsOf(plan)).toEqual(["/p/pub/content/bin", "/p/ifc/content/bin"]);
    // the middle package's own launchers see its private and public dependencies
    expect(pathsOf(composeEnv(middle, "self"))).toEqual(["/p/pub/content/bin", "/p/prv/content/bin"]);
  });
});

describe("composeEnv: order and repetition", () => {
  it("puts the package's own entries first in declared order, then dependencies in declared order, depth first", () => {
    const deep = pkg("deep", [path("PATH", "${installPath}/bin")]);
    const first = pkg("first", [path("PATH", "${installPath}/bin")], [[{ visibility: "public" }, deep]]);
    const second = pkg("second", [path("PATH", "${installPath}/bin")]);
    const plan = composeEnv(
      pkg(
        "a",
        [path("PATH", "${installPath}/bin"), path("PATH", "${installPath}/sbin")],
        [
          [{ visibility: "public" }, first],
          [{ visibility: "public" }, second],
        ],
      ),
      "consumer",
    );
    expect(pathsOf(plan)).toEqual([
      "/p/a/content/bin",
      "/p/a/content/sbin",
      "/p/first/content/bin",
      "/p/deep/content/bin",
      "/p/second/content/bin",
    ]);
  });

  it("puts a consumer's entrypoints directory first on PATH, and never in the self view", () => {
    const a = pkg("a", [path("PATH", "${installPath}/bin")], [], { entrypointsDir: "/p/a/entrypoints" });
    expect(pathsOf(composeEnv(a, "consumer"))).toEqual(["/p/a/entrypoints", "/p/a/content/bin"]);
    expect(pathsOf(composeEnv(a, "self"))).toEqual(["/p/a/content/bin"]);
    const parent = pkg("b", [], [[{ visibility: "public" }, a]]);
    // a dependency's launchers are part of its consumer view, so its parent's launchers reach them
    expect(pathsOf(composeEnv(parent, "self"))).toEqual(["/p/a/entrypoints", "/p/a/content/bin"]);
  });

  it("lists a directory once, where it first comes (a dependency reached twice)", () => {
    const shared = pkg("shared", [path("PATH", "${installPath}/bin")]);
    const left = pkg("left", [], [[{ visibility: "public" }, shared]]);
    const right = pkg("right", [path("PATH", "${installPath}/bin")], [[{ visibility: "public" }, shared]]);
    const plan = composeEnv(
      pkg(
        "a",
        [],
        [
          [{ visibility: "public" }, left],
          [{ visibility: "public" }, right],
        ],
      ),
      "consumer",
    );
    expect(pathsOf(plan)).toEqual(["/p/shared/content/bin", "/p/right/content/bin"]);
  });

  it("keeps variables apart and in first-seen order", () => {
    const plan = composeEnv(
      pkg("a", [path("PYTHONPATH", "${installPath}/lib"), path("PATH", "${installPath}/bin")]),
      "self",
    );
    expect(plan.paths.map((p) => p.key)).toEqual(["PYTHONPATH", "PATH"]);
    expect(packagePathDirs(plan, "unix")).toEqual(["/p/a/content/bin"]);
  });
});

describe("composeEnv: constants", () => {
  it("takes the package's own constant over a dependency's, and an earlier dependency's over a later one's", () => {
    const d1 = pkg("d1", [constant("HOME_OF", "${installPath}"), constant("ONLY_D1", "x")]);
    const d2 = pkg("d2", [constant("HOME_OF", "${installPath}"), constant("MODE", "d2")]);
    const a = pkg(
      "a",
      [constant("MODE", "own")],
      [
        [{ visibility: "public" }, d1],
        [{ visibility: "public" }, d2],
      ],
    );
    expect(constantsOf(composeEnv(a, "consumer"))).toEqual({
      MODE: "own",
      HOME_OF: "/p/d1/content",
      ONLY_D1: "x",
    });
  });
});

describe("expandPlaceholders", () => {
  const dep = pkg("python", [path("PATH", "${installPath}/bin")]);
  const a = pkg("a", [], [[{ name: "py" }, dep]]);

  it("expands ${installPath} and ${deps.<name>.installPath}, every occurrence, leaving other $ text alone", () => {
    expect(expandPlaceholders("${installPath}/bin:${installPath}/sbin", a)).toBe(
      "/p/a/content/bin:/p/a/content/sbin",
    );
    expect(expandPlaceholders("${deps.py.installPath}/bin/python3 $HOME", a)).toBe(
      "/p/python/content/bin/python3 $HOME",
    );
  });

  it("expands a dependency's own entries against the dependency", () => {
    const plan = composeEnv(pkg("a", [], [[{ name: "py", visibility: "public" }, dep]]), "consumer");
    expect(pathsOf(plan)).toEqual(["/p/python/content/bin"]);
  });

  it("refuses an unknown placeholder and a dependency that is not installed (exit 65)", () => {
    expect(() => expandPlaceholders("${HOME}", a)).toThrow(/unknown placeholder \$\{HOME\}/);
    try {
      expandPlaceholders("${deps.ruby.installPath}", a);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ exitCode: ExitCode.Data, message: expect.stringMatching(/"ruby"/) });
    }
  });
});

describe("applyEnvPlan", () => {
  const plan: EnvPlan = {
    constants: [{ key: "MODE", value: "fast" }],
    paths: [
      { key: "PATH", values: ["/p/a/bin", "/p/b/bin"] },
      { key: "MODE", values: ["/p/a/mode"] },
    ],
  };

  it("joins with ':' on Unix, puts the inherited value last, and replaces a variable by a constant", () => {
    const env = applyEnvPlan({ PATH: "/usr/bin:/bin", MODE: "slow", KEEP: "1" }, plan, "unix");
    expect(env).toEqual({ PATH: "/p/a/bin:/p/b/bin:/usr/bin:/bin", MODE: "/p/a/mode:fast", KEEP: "1" });
  });

  it("joins with ';' on Windows and matches an existing variable without regard to case", () => {
    expect(pathSeparator("windows")).toBe(";");
    const env = applyEnvPlan({ Path: "C:\\Windows", mode: "slow" }, plan, "windows");
    expect(env).toEqual({ Path: "/p/a/bin;/p/b/bin;C:\\Windows", mode: "/p/a/mode;fast" });
    expect(packagePathDirs({ constants: [], paths: [{ key: "Path", values: ["x"] }] }, "windows")).toEqual([
      "x",
    ]);
  });

  it("adds no trailing separator for an unset or empty variable (it would put the working directory on it)", () => {
    expect(applyEnvPlan({}, plan, "unix").PATH).toBe("/p/a/bin:/p/b/bin");
    expect(applyEnvPlan({ PATH: "" }, plan, "unix").PATH).toBe("/p/a/bin:/p/b/bin");
  });

  it("leaves its input untouched and drops undefined values", () => {
    const base = { PATH: "/bin", GONE: undefined };
    const env = applyEnvPlan(base, plan, "unix");
    expect(base).toEqual({ PATH: "/bin", GONE: undefined });
    expect("GONE" in env).toBe(false);
  });
});
