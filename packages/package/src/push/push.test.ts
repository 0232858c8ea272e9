import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError, silentLogger } from "@pkg/common";
import { type BlobSource, openRegistry, type Target } from "@pkg/oci";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMetadata } from "../metadata/model.js";
import { parsePlatformKey } from "../platform/key.js";
import { type LocalLayer, readLocalLayer } from "./layer-args.js";
import { type PushRequest, pushPackage } from "./push.js";

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

let registry: RunningRegistry;
let work: TempDir;
beforeAll(async () => {
  [registry, work] = await Promise.all([startRegistry(), tempDir("push-package-")]);
});
afterAll(async () => {
  await Promise.all([registry?.stop(), work?.remove()]);
});

const pushOptions = { plainHttp: true, credential: null, env: {} } as const;

/** A push of `layer` alone to `target`, tag 1.0.0, default metadata. */
const requestOf = (target: Target, layer: LocalLayer): PushRequest => ({
  target,
  tag: "1.0.0",
  platform: parsePlatformKey("linux/amd64"),
  layers: [layer],
  metadata: defaultMetadata(),
  cascade: false,
  annotations: {},
  log: silentLogger,
});

describe("pushPackage", () => {
  it("uploads the config beside the layers; the first failure stops the others, and the push fails once they have settled", async () => {
    const path = join(work.path, "layer.tar.zst");
    await writeFile(path, Buffer.concat([ZSTD_MAGIC, randomBytes(4096)]));
    const layer = await readLocalLayer({ path });
    const events: string[] = [];
    const real = openRegistry(`${registry.host}/acme/stopped`, pushOptions);
    const target = new Proxy(real, {
      get(inner, key) {
        if (key === "pushBlob")
          return async (source: BlobSource, options?: { signal?: AbortSignal }) => {
            const signal = options?.signal;
            if (source.digest !== layer.source.digest) {
              // the config is refused once the layer's upload is under way
              await new Promise((resolve) => setTimeout(resolve, 20));
              events.push("config refused");
              throw new PkgError(ExitCode.Unavailable, "config refused");
            }
            events.push("layer started");
            await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
            events.push("layer stopped");
            await new Promise((resolve) => setTimeout(resolve, 20));
            events.push("layer settled");
            throw signal?.reason;
          };
        const value = Reflect.get(inner, key, inner);
        return typeof value === "function" ? value.bind(inner) : value;
      },
    }) as Target;
    const pushed = pushPackage(requestOf(target, layer));
    await expect(pushed).rejects.toThrow("config refused");
    expect(events).toEqual(["layer started", "config refused", "layer stopped", "layer settled"]);
    expect(await real.listTags()).toEqual([]);
  });

  it("pushes the config and a layer side by side into a real registry", async () => {
    const path = join(work.path, "whole.tar.zst");
    await writeFile(path, Buffer.concat([ZSTD_MAGIC, randomBytes(4096)]));
    const layer = await readLocalLayer({ path });
    const target = openRegistry(`${registry.host}/acme/whole`, pushOptions);
    const report = await pushPackage(requestOf(target, layer));
    expect(report.layers).toEqual({ mounted: 0, uploaded: 1, verified: 0 });
    expect(await target.blobSize(layer.source.digest)).toBe(layer.source.size);
    expect(await target.listTags()).toEqual(["1.0.0"]);
  });
});
