import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Logger, silentTasks } from "@pkg/common";
import { MemoryStore, openMemory, type Target } from "@pkg/oci";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerWheelLayers, wheelRegistration, wheelRepository } from "./wheel-layers.js";

const wheel = (pkg: string, sha: string, url = `https://Files.Example.org:8443/x/${pkg}.whl`) => ({
  name: `${pkg}-1.0-py3-none-any.whl`,
  package: pkg,
  url,
  sha256: sha.repeat(64).slice(0, 64),
});

let dir: TempDir;
let layer: string;
beforeAll(async () => {
  dir = await tempDir("wheel-layers-");
  layer = join(dir.path, "layer.tar.zst");
  // a zstd frame's magic: all the publisher reads of a layer's kind
  await writeFile(layer, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
});
afterAll(async () => {
  await dir?.remove();
});

const logger = () => {
  const warnings: string[] = [];
  const log: Logger = { info() {}, progress() {}, warn: (line) => warnings.push(line), tasks: silentTasks };
  return { log, warnings };
};

describe("shared wheel layers", () => {
  it("live in <wheel_scope>/<index host>/<package>: the host lowercased, its port left out", () => {
    expect(wheelRepository("pip-packages", wheel("helper-lib", "a"))).toBe(
      "pip-packages/files.example.org/helper-lib",
    );
    expect(wheelRepository("acme/wheels", wheel("x", "b", "http://127.0.0.1:5000/f/x.whl"))).toBe(
      "acme/wheels/127.0.0.1/x",
    );
  });

  it("are registered once per run under the wheel's sha256, and every wheel layer is mounted from its repository", async () => {
    const store = new MemoryStore();
    const opened: string[] = [];
    const { log } = logger();
    const registration = wheelRegistration(
      "pip-packages",
      (repository) => {
        opened.push(repository);
        return openMemory(repository, { store });
      },
      log,
    );
    const helper = wheel("helper-lib", "a");
    const layers = [{ path: layer, wheel: helper }, { path: join(dir.path, "plain.tar.zst") }];
    expect(await registerWheelLayers(layers, registration)).toEqual([
      { path: layer, mountFrom: "pip-packages/files.example.org/helper-lib" },
      { path: join(dir.path, "plain.tar.zst") },
    ]);
    const standalone = openMemory("pip-packages/files.example.org/helper-lib", { store });
    expect(await standalone.listTags()).toEqual([helper.sha256]);
    // the same wheel again in this run: nothing asked, nothing pushed
    await registerWheelLayers([{ path: layer, wheel: helper }], registration);
    expect(opened).toHaveLength(1);
    // a later run finds it in the tag list and pushes nothing
    const later = wheelRegistration("pip-packages", (repository) => openMemory(repository, { store }), log);
    await registerWheelLayers([{ path: layer, wheel: helper }], later);
    expect(await standalone.listTags()).toEqual([helper.sha256]);
  });

  it("warns, and still names the repository to mount from, when a registration fails", async () => {
    const { log, warnings } = logger();
    const failing = (): Target => {
      throw new Error("registry refused the push");
    };
    const registration = wheelRegistration("pip-packages", failing, log);
    const out = await registerWheelLayers([{ path: layer, wheel: wheel("lib", "c") }], registration);
    expect(out[0]?.mountFrom).toBe("pip-packages/files.example.org/lib");
    expect(warnings).toEqual([
      "wheel layer lib-1.0-py3-none-any.whl: not registered in pip-packages/files.example.org/lib (registry refused the push); the app uploads it itself",
    ]);
  });
});
