import { createServer } from "node:net";
import { join } from "node:path";
import { credentialSlug } from "@pkg/net";
import {
  type RunningRegistry,
  randomFaults,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let bundle: string;

beforeAll(async () => {
  work = await tempDir("pkg-auth-");
  await writeSampleTree(join(work.path, "tree"));
  bundle = join(work.path, "tool.tar.zst");
  const created = await runPkg(["package", "create", join(work.path, "tree"), "-o", bundle]);
  expect(created.code, created.stderr).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

function credentialsEnv(host: string, user: string, password: string): Record<string, string> {
  const slug = credentialSlug(host);
  return {
    [`PKG_AUTH_${slug}_TYPE`]: "basic",
    [`PKG_AUTH_${slug}_USER`]: user,
    [`PKG_AUTH_${slug}_TOKEN`]: password,
  };
}

describe.each(["basic", "token"] as const)("%s auth", (auth) => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth });
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("pushes with credentials from PKG_AUTH_<host>_*", async () => {
    const user = registry.user;
    if (!user) throw new Error("the harness gives authenticated registries a user");
    const result = await runPkg(
      ["package", "push", "-i", `${registry.host}/acme/tool:1.0.0`, "-p", "linux/amd64", bundle],
      {
        env: credentialsEnv(registry.host, user.username, user.password),
      },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it("exits 80 on wrong credentials with one line and no secret", async () => {
    const secret = "wrong-secret-Zq8x1";
    const result = await runPkg(
      ["package", "push", "-i", `${registry.host}/acme/tool:1.0.0`, "-p", "linux/amd64", bundle],
      {
        env: credentialsEnv(registry.host, registry.user?.username ?? "u", secret),
      },
    );
    expect(result.code).toBe(80);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^pkg: /);
    expect(result.stderr + result.stdout).not.toContain(secret);
  });

  it("exits 80 when pushing anonymously", async () => {
    const result = await runPkg([
      "package",
      "push",
      "-i",
      `${registry.host}/acme/tool:1.0.0`,
      "-p",
      "linux/amd64",
      bundle,
    ]);
    expect(result.code).toBe(80);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("unavailable and faulty registries", () => {
  it("exits 69 with one line when nothing listens", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const result = await runPkg([
      "package",
      "push",
      "-i",
      `127.0.0.1:${port}/acme/tool:1.0.0`,
      "-p",
      "linux/amd64",
      bundle,
    ]);
    expect(result.code).toBe(69);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("completes through drops, 5xx and 429s, and no tag points at a missing blob", async () => {
    const registry = await startRegistry();
    const proxy = await startFaultProxy(
      registry.url,
      randomFaults({
        seed: 7,
        drop: 0.1,
        serverError: 0.1,
        tooManyRequests: 0.05,
        retryAfterSeconds: 1,
        maxFaults: 12,
      }),
    );
    try {
      for (const platform of ["linux/amd64", "linux/arm64"]) {
        const result = await runPkg([
          "package",
          "push",
          "-i",
          `${proxy.host}/acme/tool:1.0.0_20250101000000`,
          "-p",
          platform,
          "--cascade",
          bundle,
        ]);
        expect(result.code, result.stderr).toBe(0);
      }
      expect(proxy.requests.some((r) => r.status !== undefined && r.status >= 429)).toBe(true);
      await expectEveryTagComplete(registry.url, "acme/tool");
    } finally {
      await proxy.stop();
      await registry.stop();
    }
  });
});

/** Reads every tag straight from the registry and checks each manifest, config and layer is stored. */
async function expectEveryTagComplete(url: string, repository: string): Promise<void> {
  const tags = ((await (await fetch(`${url}/v2/${repository}/tags/list`)).json()) as { tags: string[] }).tags;
  expect(tags.length).toBeGreaterThan(1);
  const accept = "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json";
  for (const tag of tags) {
    const index = (await (
      await fetch(`${url}/v2/${repository}/manifests/${tag}`, { headers: { accept } })
    ).json()) as {
      manifests: Array<{ digest: string }>;
    };
    for (const entry of index.manifests) {
      const manifestResponse = await fetch(`${url}/v2/${repository}/manifests/${entry.digest}`, {
        headers: { accept },
      });
      expect(manifestResponse.status).toBe(200);
      const manifest = (await manifestResponse.json()) as {
        config: { digest: string };
        layers: Array<{ digest: string }>;
      };
      for (const blob of [manifest.config, ...manifest.layers]) {
        const head = await fetch(`${url}/v2/${repository}/blobs/${blob.digest}`, { method: "HEAD" });
        expect(head.status, `${tag} -> ${blob.digest}`).toBe(200);
      }
    }
  }
}
