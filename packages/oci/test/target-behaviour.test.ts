import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { ExitCode, PkgError } from "@pkg/common";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openLayout } from "../src/layout.js";
import { MemoryStore, openMemory } from "../src/memory.js";
import { openRegistry } from "../src/registry.js";
import { readOnly, type Target } from "../src/target.js";
import { type BlobSource, MediaType } from "../src/types.js";
import { bufferSource, imageManifest, readAll } from "./support/helpers.js";

let registry: RunningRegistry;
let scratch: TempDir;
const store = new MemoryStore();

beforeAll(async () => {
  registry = await startRegistry({ auth: "none" });
  scratch = await tempDir("oci-targets-");
});
afterAll(async () => {
  await registry?.stop();
  await scratch?.remove();
});

interface Kind {
  name: string;
  open: (repository: string) => Target;
  /** Whether `untag` works (CNCF distribution 2.x deletes only by digest: exit 82). */
  untags: () => boolean;
}

const kinds: Kind[] = [
  { name: "layout", open: (repository) => openLayout(scratch.path, repository), untags: () => true },
  { name: "memory", open: (repository) => openMemory(repository, { store }), untags: () => true },
  {
    name: "registry",
    open: (repository) => openRegistry(`${registry.host}/${repository}`, { retry: { firstDelayMs: 10 } }),
    untags: () => false,
  },
];

/** The tags, without the referrers scheme's `sha256-<hex>` tags a layout or registry keeps. */
async function plainTags(target: Target): Promise<string[]> {
  return (await target.listTags()).filter((t) => !t.startsWith("sha256-")).sort();
}

/** An image (config and one layer) pushed to `target`, its manifest bytes returned unpushed. */
async function pushedImage(target: Target): Promise<Buffer> {
  const config = bufferSource(Buffer.from(JSON.stringify({ n: randomBytes(8).toString("hex") })));
  const layer = bufferSource(randomBytes(1000));
  await target.pushBlob(config);
  await target.pushBlob(layer);
  return imageManifest(config, [layer]);
}

/** A stream source whose first chunk aborts `controller`, the rest following a tick later. */
function abortingSource(bytes: Buffer, controller: AbortController): BlobSource {
  const good = bufferSource(bytes);
  return {
    digest: good.digest,
    size: good.size,
    open: () =>
      Readable.from(
        (async function* () {
          yield bytes.subarray(0, 10);
          controller.abort(new PkgError(ExitCode.Transient, "test: stop"));
          await new Promise((resolve) => setImmediate(resolve));
          yield bytes.subarray(10);
        })(),
      ),
  };
}

describe.each(kinds)("$name target", (kind) => {
  const repo = (name: string) => kind.open(`behaviour-${kind.name}/${name}`);

  test("push, verified fetch, and no second upload", async () => {
    const target = repo("blobs");
    const blob = bufferSource(randomBytes(5000));
    expect(await target.blobSize(blob.digest)).toBeUndefined();
    expect(await target.pushBlob(blob)).toBe("uploaded");
    expect(await target.pushBlob(blob)).toBe("existed");
    expect(await target.blobSize(blob.digest)).toBe(blob.size);
    expect((await readAll(await target.fetchBlob(blob.digest, blob.size))).equals(blob.open())).toBe(true);
    const wrongSize = target.fetchBlob(blob.digest, blob.size + 1).then(readAll);
    await expect(wrongSize).rejects.toMatchObject({ exitCode: ExitCode.Data });
  });

  test("content that does not hash to its digest is refused and not stored", async () => {
    const target = repo("lying");
    const good = bufferSource(randomBytes(300));
    const lying = { ...good, open: () => randomBytes(300) };
    await expect(target.pushBlob(lying)).rejects.toMatchObject({ exitCode: ExitCode.Data });
    expect(await target.blobSize(good.digest)).toBeUndefined();
  });

  test("tag, fetch by tag and digest, list; an absent reference is undefined", async () => {
    const target = repo("tags");
    const bytes = await pushedImage(target);
    const descriptor = await target.pushManifest(bytes, MediaType.ImageManifest, "v1");
    await target.pushManifest(bytes, MediaType.ImageManifest, "latest");
    expect((await target.fetchManifest("v1"))?.descriptor.digest).toBe(descriptor.digest);
    expect((await target.fetchManifest(descriptor.digest))?.bytes.equals(bytes)).toBe(true);
    expect(await target.fetchManifest("absent")).toBeUndefined();
    expect(await plainTags(target)).toEqual(["latest", "v1"]);
  });

  test("a repository that does not exist: no tags, or exit 65 when asked", async () => {
    const target = repo("never-pushed");
    expect(await target.listTags()).toEqual([]);
    await expect(target.listTags({ ifMissing: "error" })).rejects.toMatchObject({
      exitCode: ExitCode.Data,
      message: expect.stringMatching(/no such repository/),
    });
  });

  test("untag removes the tag, the manifest stays", async () => {
    const target = repo("untag");
    const bytes = await pushedImage(target);
    const descriptor = await target.pushManifest(bytes, MediaType.ImageManifest, "gone");
    await target.pushManifest(bytes, MediaType.ImageManifest, "kept");
    if (!kind.untags()) {
      await expect(target.untag("gone")).rejects.toMatchObject({
        exitCode: ExitCode.Unsupported,
        message: expect.stringMatching(/does not delete tags/),
      });
      return;
    }
    await target.untag("gone");
    await target.untag("gone"); // an absent tag: nothing to do
    expect(await plainTags(target)).toEqual(["kept"]);
    expect(await target.fetchManifest("gone")).toBeUndefined();
    expect((await target.fetchManifest(descriptor.digest))?.descriptor.digest).toBe(descriptor.digest);
  });

  test("deleteManifest removes a manifest by digest", async () => {
    const target = repo("delete");
    const bytes = await pushedImage(target);
    const descriptor = await target.pushManifest(bytes, MediaType.ImageManifest);
    await target.pushManifest(bytes, MediaType.ImageManifest, "pinned");
    if (kind.name !== "registry") {
      // a layout or memory target never leaves a tag pointing at a missing manifest
      await expect(target.deleteManifest(descriptor.digest)).rejects.toMatchObject({
        exitCode: ExitCode.Data,
      });
      await target.untag("pinned");
    }
    await target.deleteManifest(descriptor.digest);
    expect(await target.fetchManifest(descriptor.digest)).toBeUndefined();
    expect(await plainTags(target)).toEqual([]);
    await target.deleteManifest(descriptor.digest); // already gone: nothing to do
  });

  test("a blob is mounted from another repository of the same store", async () => {
    const from = repo("mount-from");
    const to = repo("mount-to");
    const blob = bufferSource(randomBytes(2000));
    await from.pushBlob(blob);
    expect(await to.pushBlob(blob, { mountFrom: from.repository })).toBe("mounted");
    expect((await readAll(await to.fetchBlob(blob.digest))).equals(blob.open())).toBe(true);
  });

  test("referrers: manifests whose subject is the digest, by artifact type", async () => {
    const target = repo("referrers");
    const subject = await target.pushManifest(await pushedImage(target), MediaType.ImageManifest, "app");
    const empty = bufferSource(Buffer.from("{}"));
    await target.pushBlob(empty);
    const signature = imageManifest(empty, [], {
      artifactType: "application/vnd.test.signature",
      config: { mediaType: MediaType.EmptyJson, digest: empty.digest, size: empty.size },
      subject,
    });
    const referrer = await target.pushManifest(signature, MediaType.ImageManifest);
    const listed = await target.referrers(subject.digest);
    expect(listed.map((d) => [d.digest, d.artifactType])).toEqual([
      [referrer.digest, "application/vnd.test.signature"],
    ]);
    expect(await target.referrers(subject.digest, "application/vnd.other")).toEqual([]);
  });

  test("an aborted signal rejects every method with its PkgError reason, before anything is done", async () => {
    const target = repo("aborted");
    const reason = new PkgError(ExitCode.Transient, "test: the attempt ran out of time");
    const signal = AbortSignal.abort(reason);
    const blob = bufferSource(randomBytes(100));
    const digest = blob.digest;
    const manifest = await pushedImage(kind.open(`behaviour-${kind.name}/aborted-source`));
    const calls: Array<Promise<unknown>> = [
      target.blobSize(digest, { signal }),
      target.pushBlob(blob, { signal }),
      target.fetchBlob(digest, undefined, { signal }),
      target.fetchManifest("latest", { signal }),
      target.pushManifest(manifest, MediaType.ImageManifest, "latest", { signal }),
      target.listTags({ signal }),
      target.referrers(digest, undefined, { signal }),
      target.deleteManifest(digest, { signal }),
      target.untag("latest", { signal }),
    ];
    for (const call of calls) await expect(call).rejects.toBe(reason);
    expect(await target.blobSize(digest)).toBeUndefined();
    expect(await target.listTags()).toEqual([]);
  });

  test("an abort that is not a PkgError rejects with exit 75 naming the operation", async () => {
    const target = repo("aborted-plain");
    const signal = AbortSignal.abort();
    await expect(target.listTags({ signal })).rejects.toMatchObject({
      exitCode: ExitCode.Transient,
      message: expect.stringMatching(/list tags of .*: aborted/),
    });
  });

  test("a blob upload aborted while its bytes are read stores nothing", async () => {
    const target = repo("abort-mid-blob");
    const controller = new AbortController();
    const bytes = randomBytes(64 * 1024);
    const source = abortingSource(bytes, controller);
    await expect(target.pushBlob(source, { signal: controller.signal })).rejects.toMatchObject({
      message: "test: stop",
    });
    expect(await target.blobSize(source.digest)).toBeUndefined();
    expect(await target.pushBlob(bufferSource(bytes))).toBe("uploaded");
  });

  test("readOnly: the view reads and has no write method at runtime", async () => {
    const target = repo("read-only");
    const bytes = await pushedImage(target);
    await target.pushManifest(bytes, MediaType.ImageManifest, "v1");
    const view = readOnly(target);
    expect(view.displayName).toBe(target.displayName);
    expect(view.repository).toBe(target.repository);
    expect(await plainTags(view as Target)).toEqual(["v1"]);
    const writable = view as unknown as Record<string, unknown>;
    for (const name of ["pushBlob", "pushManifest", "deleteManifest", "untag", "client", "dir", "store"]) {
      expect(writable[name]).toBeUndefined();
    }
    expect(Object.isFrozen(view)).toBe(true);
  });
});
