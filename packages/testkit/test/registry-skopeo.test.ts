import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestCa,
  type RegistryAuth,
  type RunningRegistry,
  startRegistry,
  type TempDir,
  type TestCa,
  tempDir,
} from "../src/index.js";
import { runCommand } from "../src/run-command.js";

const SKOPEO = "/usr/bin/skopeo";

interface Blob {
  mediaType: string;
  digest: string;
  size: number;
}

async function writeBlob(layout: string, mediaType: string, content: Buffer): Promise<Blob> {
  const hex = createHash("sha256").update(content).digest("hex");
  await writeFile(join(layout, "blobs", "sha256", hex), content);
  return { mediaType, digest: `sha256:${hex}`, size: content.length };
}

/** A one-layer OCI image layout tagged `t`: an empty gzipped tar layer and a JSON config. Returns the manifest bytes. */
async function writeTinyImage(layout: string): Promise<Buffer> {
  await mkdir(join(layout, "blobs", "sha256"), { recursive: true });
  await writeFile(join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));
  const emptyTar = Buffer.alloc(1024);
  const diffId = `sha256:${createHash("sha256").update(emptyTar).digest("hex")}`;
  // Compressed already, so skopeo pushes the layer as it is rather than compressing it on the way.
  const layer = await writeBlob(layout, "application/vnd.oci.image.layer.v1.tar+gzip", gzipSync(emptyTar));
  const config = await writeBlob(
    layout,
    "application/vnd.oci.image.config.v1+json",
    Buffer.from(
      JSON.stringify({ architecture: "amd64", os: "linux", rootfs: { type: "layers", diff_ids: [diffId] } }),
    ),
  );
  const manifestBytes = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config,
      layers: [layer],
    }),
  );
  const manifest = await writeBlob(layout, "application/vnd.oci.image.manifest.v1+json", manifestBytes);
  const ref = { ...manifest, annotations: { "org.opencontainers.image.ref.name": "t" } };
  await writeFile(join(layout, "index.json"), JSON.stringify({ schemaVersion: 2, manifests: [ref] }));
  return manifestBytes;
}

describe("skopeo against each registry flavour", () => {
  let work: TempDir;
  let ca: TestCa;
  let manifest: Buffer;
  let policy: string;
  beforeAll(async () => {
    [work, ca] = await Promise.all([tempDir("skopeo-"), createTestCa()]);
    manifest = await writeTinyImage(join(work.path, "layout"));
    policy = join(work.path, "policy.json");
    await writeFile(policy, JSON.stringify({ default: [{ type: "insecureAcceptAnything" }] }));
    await writeFile(join(work.path, "ca.crt"), ca.certPem);
  });
  afterAll(async () => {
    await work?.remove();
    await ca?.remove();
  });

  async function authFile(registry: RunningRegistry, name: string): Promise<string> {
    const path = join(work.path, `${name}.json`);
    const auths = registry.user
      ? {
          [registry.host]: {
            auth: Buffer.from(`${registry.user.username}:${registry.user.password}`).toString("base64"),
          },
        }
      : {};
    await writeFile(path, JSON.stringify({ auths }));
    return path;
  }

  const cases: { auth: RegistryAuth; tls: boolean }[] = [
    { auth: "none", tls: false },
    { auth: "basic", tls: false },
    { auth: "token", tls: false },
    { auth: "token", tls: true },
  ];

  for (const { auth, tls } of cases) {
    it(`copies a tiny image into a ${auth}${tls ? " https" : ""} registry and reads it back`, async () => {
      const registry = await startRegistry({ auth, tls: tls ? ca : undefined });
      try {
        const auths = await authFile(registry, `auth-${auth}-${tls}`);
        const tlsFlags = (direction: "dest" | "src" | "") => {
          const prefix = direction === "" ? "--" : `--${direction}-`;
          return tls ? [`${prefix}cert-dir`, work.path] : [`${prefix}tls-verify=false`];
        };
        const reference = `docker://${registry.host}/x/y:t`;
        const layout = `oci:${join(work.path, "layout")}:t`;
        await runCommand(SKOPEO, [
          "--policy",
          policy,
          "copy",
          "--quiet",
          ...tlsFlags("dest"),
          "--dest-authfile",
          auths,
          layout,
          reference,
        ]);
        const inspected = await runCommand(SKOPEO, [
          "inspect",
          "--raw",
          ...tlsFlags(""),
          "--authfile",
          auths,
          reference,
        ]);
        expect(inspected.stdout).toBe(manifest.toString());
        if (auth !== "none") {
          const anonymous = join(work.path, "anonymous.json");
          await writeFile(anonymous, JSON.stringify({ auths: {} }));
          const refused = runCommand(SKOPEO, [
            "--policy",
            policy,
            "copy",
            ...tlsFlags("dest"),
            "--dest-authfile",
            anonymous,
            layout,
            `docker://${registry.host}/x/anonymous:t`,
          ]);
          await expect(refused).rejects.toThrow(
            /unauthorized|authentication required|access to the resource is denied/i,
          );
        }
        if (auth === "token") expect(registry.tokenRequests.some((r) => r.status === 200)).toBe(true);
      } finally {
        await registry.stop();
      }
    });
  }
});
