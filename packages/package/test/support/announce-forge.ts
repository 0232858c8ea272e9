import { type Logger, silentLogger } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { MediaType, MemoryStore, MemoryTarget } from "@pkg/oci";
import { type AnnounceReport, announce } from "../../src/announce/announce.js";
import { createForgeDestination, resolveForgeTarget } from "../../src/announce/forge/index.js";

export const PACKAGE = "acme/tool";
export const ROOT = "p/acme/tool.json";
export const INDEX_FILES = { "config.json": '{"format_version":1}\n', "README.md": "# index\n" };

/** A package repository in memory whose tags each point at a distinct (empty) image index. */
export async function packageSource(tags: string[]): Promise<MemoryTarget> {
  const target = new MemoryTarget("acme/tool", new MemoryStore());
  await addTags(target, tags);
  return target;
}

export async function addTags(target: MemoryTarget, tags: string[]): Promise<void> {
  for (const tag of tags) {
    const bytes = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ImageIndex,
        manifests: [],
        annotations: { "org.example.tag": tag },
      }),
    );
    await target.pushManifest(bytes, MediaType.ImageIndex, tag);
  }
}

export interface ForgeAnnounce {
  forge: "forgeone" | "forgetwo";
  indexRepo: string;
  fork?: string;
  transport?: "api" | "git";
  env: NodeJS.ProcessEnv;
  http?: PooledHttpClient;
  log?: Logger;
}

/** The tags in a root document's bytes. */
export function rootTags(bytes: Buffer | undefined): string[] {
  if (!bytes) return [];
  return Object.keys((JSON.parse(bytes.toString("utf8")) as { tags: Record<string, unknown> }).tags).sort();
}

/**
 * Announces `tags` (added to the committed set) from `source` to a forge index repository, the
 * way the command does: the real regenerate over the real destination.
 */
export async function announceTo(
  options: ForgeAnnounce,
  source: MemoryTarget,
  tags: string[],
): Promise<AnnounceReport> {
  const target = resolveForgeTarget({
    indexRepo: options.indexRepo,
    forge: options.forge,
    ...(options.fork ? { fork: options.fork } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  const http = options.http ?? createHttpClient({ env: options.env });
  try {
    const destination = createForgeDestination({
      target,
      pkg: PACKAGE,
      env: options.env,
      http,
      log: options.log ?? silentLogger,
    });
    return await announce(
      {
        package: PACKAGE,
        mode: { kind: "add", tags },
        source,
        repository: "oci://registry.example/acme/tool",
        label: "example.org",
        owners: [{ github: "alice", github_id: 7 }],
      },
      destination,
    );
  } finally {
    if (!options.http) await http.close();
  }
}
