import { join } from "node:path";
import { sha256Digest } from "@pkg/oci";
import { buildAsset } from "./archive-kinds.js";
import { type ForgeRelease, forgeRelease } from "./forge.js";

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

/** Builds one asset with the real tools in `scratch` (see `buildAsset`): archives hold `hello-<version>/hello`. */
function buildSampleAsset(
  scratch: string,
  version: string,
  platform: string,
  kind: SampleKind,
): Promise<Buffer> {
  const dir = join(scratch, `${version}-${platform.replace("/", "-")}-${kind}`);
  const script = helloScript(version, platform);
  return buildAsset(dir, kind === "binary.gz" ? "gz" : kind, script, [`hello-${version}`]);
}

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
      const digest = name === wrongDigest ? sha256Digest("something else") : sha256Digest(bytes);
      listed.push({ name, digest, url: `${baseUrl}/files/${name}` });
    }
    releases.unshift(forgeRelease(`v${version}`, listed));
  }
  return { releases, files };
}
