import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EnvPlan, renderLauncher, resolveCommand, whyNotRunnable } from "../src/exec/index.js";

let work: TempDir;
let pkgBin: string;
let depBin: string;
let hostBin: string;
let otherHost: string;

async function executable(path: string, text: string, mode = 0o755): Promise<void> {
  await writeFile(path, `#!/bin/sh\n${text}\n`);
  await chmod(path, mode);
}

beforeAll(async () => {
  work = await tempDir("pkg-exec-resolve-");
  [pkgBin, depBin, hostBin, otherHost] = ["pkg/bin", "dep/bin", "host/bin", "host/other"].map((d) =>
    join(work.path, d),
  ) as [string, string, string, string];
  for (const dir of [pkgBin, depBin, hostBin, otherHost]) await mkdir(dir, { recursive: true });
  await executable(join(pkgBin, "tool"), "echo pkg tool");
  await executable(join(pkgBin, "plain"), "echo plain", 0o644);
  await executable(join(depBin, "plain"), "echo dep plain");
  await symlink("missing-target", join(pkgBin, "dangling"));
  await mkdir(join(pkgBin, "subdir"));
  await executable(join(depBin, "subdir"), "echo dep subdir");
  await executable(join(hostBin, "plain"), "echo host plain");
  await executable(join(hostBin, "hostonly"), "echo hostonly", 0o644);
  await executable(join(otherHost, "hostonly"), "echo other hostonly");
});
afterAll(async () => {
  await work?.remove();
});

describe("resolveCommand", () => {
  const resolve = (name: string) => resolveCommand(name, [pkgBin, depBin], `${hostBin}:${otherHost}`, "unix");

  it("finds a command in the package directories first", async () => {
    expect(await resolve("tool")).toEqual({ path: join(pkgBin, "tool"), from: "package" });
  });

  it("refuses a shipped file that cannot run with 65, naming it, even when a later directory or the host has the name", async () => {
    await expect(resolve("plain")).rejects.toMatchObject({
      exitCode: 65,
      message: `${join(pkgBin, "plain")}: the package ships plain but it is not executable (mode 0644); not running a plain from the host's PATH instead`,
    });
    await expect(resolve("dangling")).rejects.toMatchObject({
      exitCode: 65,
      message: expect.stringContaining(
        `${join(pkgBin, "dangling")}: the package ships dangling but it is a broken link`,
      ),
    });
  });

  it("passes over a directory of the command's name", async () => {
    expect(await resolve("subdir")).toEqual({ path: join(depBin, "subdir"), from: "package" });
  });

  it("looks a name no package directory holds up on the host's PATH, skipping files that cannot run, as the shell does", async () => {
    expect(await resolve("hostonly")).toEqual({ path: join(otherHost, "hostonly"), from: "host" });
    await expect(resolve("nowhere")).rejects.toMatchObject({
      exitCode: 69,
      message: "nowhere: not found in the package nor on PATH",
    });
  });

  it("takes a path as given, and an empty name is a usage error", async () => {
    expect(await resolve("./tool")).toEqual({ path: "./tool", from: "given" });
    await expect(resolve("")).rejects.toMatchObject({ exitCode: 64 });
  });

  it("says why a named file cannot run", async () => {
    expect(await whyNotRunnable(join(pkgBin, "tool"), "unix")).toBeUndefined();
    expect(await whyNotRunnable(join(pkgBin, "plain"), "unix")).toBe("not executable (mode 0644)");
    expect(await whyNotRunnable(join(pkgBin, "nope"), "unix")).toBe("missing");
    expect(await whyNotRunnable(pkgBin, "unix")).toBe("a directory");
  });
});

describe("launchers, run by sh", () => {
  const env: EnvPlan = {
    constants: [{ key: "GREETING", value: "it's $HOME" }],
    paths: [{ key: "PATH", values: [depBin] }],
  };

  it("pass arguments through exactly, after the entrypoint's own", async () => {
    const dir = join(work.path, "launchers-args");
    await mkdir(dir);
    const launcher = join(dir, "show");
    await writeFile(
      launcher,
      renderLauncher(
        {
          name: "show",
          identifier: "r.example/acme/tool:1",
          env,
          target: { kind: "path", path: "/bin/sh" },
          args: ["-c", 'printf "[%s]" "$GREETING" "$@"; printf "\\n"', "argv0"],
          entrypointsDir: dir,
        },
        "unix",
      ),
    );
    await chmod(launcher, 0o755);
    const { stdout } = await runCommand(launcher, ["a b", "$(id)", "'q'", ""]);
    expect(stdout).toBe("[it's $HOME][a b][$(id)]['q'][]\n");
  });

  it("looking a name up when it runs, never finds itself: its own directory is left off PATH", async () => {
    const dir = join(work.path, "launchers-lookup");
    await mkdir(dir);
    const launcher = join(dir, "hostonly");
    await writeFile(
      launcher,
      renderLauncher(
        {
          name: "hostonly",
          identifier: "r.example/acme/tool:1",
          env: { constants: [], paths: [] },
          target: { kind: "lookup", name: "hostonly" },
          args: ["x"],
          entrypointsDir: dir,
        },
        "unix",
      ),
    );
    await chmod(launcher, 0o755);
    const { stdout } = await runCommand(launcher, [], { env: { PATH: `${dir}:${otherHost}:/usr/bin:/bin` } });
    expect(stdout).toBe("other hostonly\n");
  });
});
