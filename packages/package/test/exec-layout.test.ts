import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExecFixture, installedDir, parseEnv, publishExecFixture } from "./support/exec-fixture.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let layout: string;
let fixture: ExecFixture;

beforeAll(async () => {
  work = await tempDir("pkg-exec-layout-");
  layout = join(work.path, "layout");
  fixture = await publishExecFixture(work.path, "", layout);
});
afterAll(async () => {
  await work?.remove();
});

describe("pkg exec --layout", () => {
  it("installs a package and its digest-pinned dependencies from the OCI image layout and runs them", async () => {
    const home = join(work.path, "home");
    const env = { PKG_HOME: home, PATH: "/usr/bin:/bin" };
    const entry = await runPkg(["exec", "--layout", layout, fixture.app, "--", "app-py", "1"], { env });
    expect(entry.code, entry.stderr).toBe(0);
    expect(entry.stdout).toBe("pyfake -m app 1 private=p mode=on\n");

    const printed = await runPkg(["exec", "--layout", layout, fixture.app, "--", "env"], { env });
    const app = installedDir(home, fixture.pushed.app.manifestDigest);
    const data = installedDir(home, fixture.pushed.data.manifestDigest);
    expect(parseEnv(printed.stdout).PATH).toBe(
      `${app}/entrypoints:${app}/content/bin:${data}/content/bin:/usr/bin:/bin`,
    );

    const byDigest = await runPkg(
      ["exec", "--layout", layout, `acme/app@${fixture.pushed.app.indexDigest}`, "--", "app", "d"],
      { env },
    );
    expect(byDigest.stdout).toBe("app d\n");
    const offline = await runPkg(["exec", "--offline", "--layout", layout, fixture.app], { env });
    expect(offline.stdout).toBe("pyfake -m app private=p mode=on\n");
  });

  it("refuses a shipped command that is not executable with 65, also from a layout", async () => {
    const result = await runPkg(["exec", "--layout", layout, fixture.broken, "--", "tool"], {
      env: { PKG_HOME: join(work.path, "home-broken") },
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(
      /content\/bin\/tool: the package ships tool but it is not executable \(mode 0644\)/,
    );
  });

  it("names what is wrong with a reference: missing tag (65), malformed (64)", async () => {
    const env = { PKG_HOME: join(work.path, "home-errors") };
    const missing = await runPkg(["exec", "--layout", layout, "acme/app:9.9"], { env });
    expect(missing.code).toBe(65);
    expect(missing.stderr).toBe(`pkg: layout:${layout}/acme/app:9.9 not found\n`);
    const malformed = await runPkg(["exec", "--layout", layout, "Acme/App"], { env });
    expect(malformed.code).toBe(64);
    const noEntrypoint = await runPkg(["exec", "--layout", layout, "acme/data:2.0"], { env });
    expect(noEntrypoint.code).toBe(64);
    expect(noEntrypoint.stderr).toContain(
      "acme/data:2.0 has no entrypoint; name the command to run after --",
    );
  });
});
