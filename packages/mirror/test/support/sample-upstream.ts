import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type ForgeRelease, forgeRelease } from "./forge.js";

const exec = promisify(execFile);

/** The script every sample asset carries: it prints its version and platform. */
export function helloScript(version: string, platform: string): string {
  return `#!/bin/sh\necho "hello ${version} ${platform}"\n`;
}

export type SampleKind = "tar.gz" | "zip" | "binary" | "binary.gz";

/** Asset names per kind: archives hold `hello-<version>/hello` (strip 1), binaries are the script. */
export function sampleAssetName(version: string, platform: string, kind: SampleKind): string {
  const base = `hello-${version}-${platform.replace("/", "-")}`;
  return kind === "binary" ? base : `${base}.${kind === "binary.gz" ? "gz" : kind}`;
}

/**
 * Builds one asset with the real tools (tar, zip, gzip) in `scratch`; archive entries carry no
 * executable bit in the zip, so the content step must add it.
 */
export async function buildSampleAsset(
  scratch: string,
  version: string,
  platform: string,
  kind: SampleKind,
): Promise<Buffer> {
  const dir = join(scratch, `${version}-${platform.replace("/", "-")}-${kind}`);
  const top = `hello-${version}`;
  await mkdir(join(dir, top), { recursive: true });
  const script = join(dir, top, "hello");
  await writeFile(script, helloScript(version, platform));
  if (kind === "tar.gz") {
    await chmod(script, 0o755);
    await exec("tar", ["-czf", "asset", top], { cwd: dir });
  } else if (kind === "zip") {
    await chmod(script, 0o644);
    await exec("zip", ["-qr", "asset", top], { cwd: dir });
    return readFile(join(dir, "asset.zip"));
  } else if (kind === "binary.gz") {
    await exec("gzip", ["-kn", join(top, "hello")], { cwd: dir });
    return readFile(join(dir, top, "hello.gz"));
  } else {
    return readFile(script);
  }
  return readFile(join(dir, "asset"));
}

export const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

export interface SampleUpstream {
  releases: ForgeRelease[];
  files: Map<string, Buffer>;
}

/**
 * The releases (newest first) and files of a sample upstream whose release assets are served by
 * the forge itself at `<baseUrl>/files/<name>`, each with its true digest unless `wrongDigest`
 * names the asset to declare a wrong one for.
 */
export async function sampleUpstream(
  scratch: string,
  baseUrl: string,
  layout: ReadonlyArray<{ version: string; assets: Record<string, SampleKind> }>,
  wrongDigest?: string,
): Promise<SampleUpstream> {
  const files = new Map<string, Buffer>();
  const releases: ForgeRelease[] = [];
  for (const { version, assets } of layout) {
    const listed = [];
    for (const [platform, kind] of Object.entries(assets)) {
      const name = sampleAssetName(version, platform, kind);
      const bytes = await buildSampleAsset(scratch, version, platform, kind);
      files.set(name, bytes);
      const digest = name === wrongDigest ? sha256(Buffer.from("something else")) : sha256(bytes);
      listed.push({ name, digest, url: `${baseUrl}/files/${name}` });
    }
    releases.unshift(forgeRelease(`v${version}`, listed));
  }
  return { releases, files };
}
