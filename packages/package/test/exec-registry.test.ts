import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExecFixture, installedDir, parseEnv, publishExecFixture } from "./support/exec-fixture.js";
import { namesIn } from "./support/exec-packages.js";
import { runPkg } from "./support/run-pkg.js";

let registry: RunningRegistry;
let proxy: FaultProxy;
let work: TempDir;
let fixture: ExecFixture;
let homes = 0;

/** A fresh, empty package store. */
function newHome(): string {
  return join(work.path, `home-${++homes}`);
}

function exec(home: string, args: string[], env: Record<string, string> = {}) {
  return runPkg(["exec", ...args], { env: { PKG_HOME: home, ...env } });
}

const hex = (digest: string) => digest.slice("sha256:".length);

beforeAll(async () => {
  registry = await startRegistry();
  // every request of the tests goes through the proxy, which records them
  proxy = await startFaultProxy(registry.url);
  work = await tempDir("pkg-exec-registry-");
  fixture = await publishExecFixture(work.path, `${proxy.host}/`);
});
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

describe("pkg exec from a registry", () => {
  it("installs the package and its dependencies (one pinned by index digest, one by manifest digest) and runs its only entrypoint", async () => {
    const home = newHome();
    const result = await exec(home, [fixture.app, "--", "app-py", "x", "y z"]);
    expect(result.code, result.stderr).toBe(0);
    // the launcher ran the private dependency's interpreter with its args before the user's, in the
    // package's own (self) environment: its private entry set, the dependency's public one too
    expect(result.stdout).toBe("pyfake -m app x y z private=p mode=on\n");
    expect(result.stderr).toContain(`installing ${fixture.app}`);
    // piped: the install of each package (the app and its two dependencies) ends with one line
    expect(result.stderr.match(/^done install \S+ in \d+\.\d s$/gm)).toHaveLength(3);

    const noCommand = await exec(home, [fixture.app]);
    expect(noCommand.code, noCommand.stderr).toBe(0);
    expect(noCommand.stdout).toBe("pyfake -m app private=p mode=on\n");
    expect(noCommand.stderr).toBe("");

    const { app, pyfake, data } = fixture.pushed;
    expect(await namesIn(join(home, "packages", "sha256"))).toEqual(
      [app, pyfake, data].map((p) => hex(p.manifestDigest)).sort(),
    );
    const record = JSON.parse(
      await readFile(join(installedDir(home, app.manifestDigest), "install.json"), "utf8"),
    );
    expect(record).toMatchObject({
      manifest: app.manifestDigest,
      dependencies: { pyfake: pyfake.manifestDigest, data: data.manifestDigest },
      entrypoints: ["app-py"],
    });
    expect(
      await readFile(
        join(home, "refs", encodeURIComponent(proxy.host), "acme", "app", "_tags", "1.0"),
        "utf8",
      ),
    ).toBe(`${app.indexDigest}\n`);
    // every layer extracted once, under its digest; no work left behind
    expect((await namesIn(join(home, "layers", "sha256"))).length).toBe(3);
    expect(await namesIn(join(home, "temp"))).toEqual([]);
  });

  it("gives a command the consumer environment: public and interface entries, public dependencies, launchers first on PATH", async () => {
    const home = newHome();
    const result = await exec(home, [fixture.app, "--", "env"], { PATH: "/usr/bin:/bin" });
    expect(result.code, result.stderr).toBe(0);
    const env = parseEnv(result.stdout);
    const app = installedDir(home, fixture.pushed.app.manifestDigest);
    const data = installedDir(home, fixture.pushed.data.manifestDigest);
    const pyfake = installedDir(home, fixture.pushed.pyfake.manifestDigest);
    expect(env.PATH).toBe(`${app}/entrypoints:${app}/content/bin:${data}/content/bin:/usr/bin:/bin`);
    expect(env.APP_IFACE).toBe("i");
    expect(env.APP_PY).toBe(`${pyfake}/content/bin/pyfake`);
    expect(env.DATA_HOME).toBe(`${data}/content`);
    expect(env.DATA_IFACE).toBe("i");
    for (const hidden of ["APP_PRIVATE", "DATA_PRIVATE", "PYFAKE_MODE", "PYFAKE_SECRET"])
      expect(env[hidden], hidden).toBeUndefined();

    // the package's own command resolves in its directories; a public dependency's too
    const own = await exec(home, [fixture.app, "--", "app", "1"]);
    expect(own.stdout).toBe("app 1\n");
    expect((await exec(home, [fixture.app, "--", "data-tool"])).stdout).toBe("data-tool\n");
    // the private dependency's interpreter is not the consumer's to call
    const hidden = await exec(home, [fixture.app, "--", "pyfake"], { PATH: "/usr/bin:/bin" });
    expect(hidden.code).toBe(69);
    expect(hidden.stderr).toBe("pkg: pyfake: not found in the package nor on PATH\n");
  });

  it("once installed, makes only the tag request; with --offline, none at all", async () => {
    const home = newHome();
    expect((await exec(home, [fixture.app, "--", "app"])).code).toBe(0);

    let before = proxy.requests.length;
    const again = await exec(home, [fixture.app, "--", "app", "again"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe("app again\n");
    const online = proxy.requests.slice(before).map((r) => `${r.method} ${r.url}`);
    expect(online.filter((r) => r.includes("/blobs/"))).toEqual([]);
    expect(online.filter((r) => r.includes("/manifests/"))).toEqual(["GET /v2/acme/app/manifests/1.0"]);

    // the registry refuses everything now: offline must not notice
    proxy.setPlan(() => ({ status: 503, body: "down" }));
    try {
      before = proxy.requests.length;
      const offline = await exec(home, ["--offline", fixture.app, "--", "app", "offline"]);
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stdout).toBe("app offline\n");
      const entry = await exec(home, ["--offline", fixture.app]);
      expect(entry.stdout).toBe("pyfake -m app private=p mode=on\n");
      expect(proxy.requests.length).toBe(before);

      // a tag never resolved in this store cannot be run offline, and says how to fix it
      const fresh = await exec(newHome(), ["--offline", fixture.app, "--", "app"]);
      expect(fresh.code).toBe(69);
      expect(fresh.stderr).toBe(
        `pkg: ${proxy.host}/acme/app:1.0 was never resolved with this package store; run once without --offline\n`,
      );
      expect(proxy.requests.length).toBe(before);
    } finally {
      proxy.setPlan(() => "pass");
    }
  });

  it("runs a package by digest without any request once it is in the store", async () => {
    const home = newHome();
    const byDigest = `${proxy.host}/acme/app@${fixture.pushed.app.indexDigest}`;
    expect((await exec(home, [byDigest, "--", "app"])).code).toBe(0);
    const before = proxy.requests.length;
    const again = await exec(home, [byDigest, "--", "app", "2"]);
    expect(again.stdout).toBe("app 2\n");
    expect(proxy.requests.length).toBe(before);
  });

  it("lets two first runs of the same package at once both succeed, leaving one consistent install", async () => {
    const home = newHome();
    // blobs answer late, so that both processes are downloading and extracting at the same time
    proxy.setPlan((request) => (request.url.includes("/blobs/") ? { delayMs: 300 } : "pass"));
    try {
      const runs = await Promise.all([
        exec(home, [fixture.app, "--", "app", "one"]),
        exec(home, [fixture.app, "--", "app", "two"]),
      ]);
      expect(runs.map((r) => [r.code, r.stdout])).toEqual([
        [0, "app one\n"],
        [0, "app two\n"],
      ]);
    } finally {
      proxy.setPlan(() => "pass");
    }
    const { app, pyfake, data } = fixture.pushed;
    expect(await namesIn(join(home, "packages", "sha256"))).toEqual(
      [app, pyfake, data].map((p) => hex(p.manifestDigest)).sort(),
    );
    expect((await namesIn(join(home, "layers", "sha256"))).length).toBe(3);
    expect((await namesIn(join(home, "blobs", "sha256"))).filter((name) => name.startsWith("."))).toEqual([]);
    expect(await namesIn(join(home, "temp"))).toEqual([]);
    const after = await exec(home, ["--offline", fixture.app]);
    expect(after.stdout).toBe("pyfake -m app private=p mode=on\n");
  });
});

describe("pkg exec never runs a host binary in place of one the package ships", () => {
  it("fails with 65 naming the file when the package's bin/tool is mode 0644 and the host has a tool on PATH", async () => {
    const hostBin = join(work.path, "host-bin");
    await mkdir(hostBin, { recursive: true });
    for (const name of ["tool", "hosttool"]) {
      await writeFile(join(hostBin, name), `#!/bin/sh\necho host ${name}\n`);
      await chmod(join(hostBin, name), 0o755);
    }
    const home = newHome();
    const path = `${hostBin}:/usr/bin:/bin`;
    const shipped = join(installedDir(home, fixture.pushed.broken.manifestDigest), "content", "bin", "tool");

    const result = await exec(home, [fixture.broken, "--", "tool", "arg"], { PATH: path });
    expect(result.code).toBe(65);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      `pkg: ${shipped}: the package ships tool but it is not executable (mode 0644); not running a tool from the host's PATH instead\n`,
    );

    // its entrypoint, whose target is that file, refuses the same way
    const entry = await exec(home, [fixture.broken], { PATH: path });
    expect(entry.code).toBe(65);
    expect(entry.stdout).toBe("");
    expect(entry.stderr).toBe(
      `pkg: ${shipped}: the package ships tool but it is not executable (mode 0644)\n`,
    );

    // a name the package does not ship is the host's
    const host = await exec(home, [fixture.broken, "--", "hosttool"], { PATH: path });
    expect(host.code, host.stderr).toBe(0);
    expect(host.stdout).toBe("host hosttool\n");
  });
});
